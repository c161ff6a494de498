"""The lobby as the lobby screen shows it: rooms, seeks, players and chat.

:class:`LobbyModel` starts from a ``lobby_snapshot`` and follows ``seek_created``,
``seek_removed``, ``room_updated``, ``room_removed``, ``presence``, lobby ``chat_line``
and ``game_list``. The ``*_row`` functions turn rooms and seeks into table rows, and
:func:`people_lines` says who is online, :func:`tournament_lines` which tournaments run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gamut_client.tui.clock import describe_time_control
from gamut_protocol import (
    AiOpponent,
    Blocks,
    ChatEntry,
    ChatLine,
    ChatRemoved,
    GameInfo,
    GameList,
    LobbySnapshot,
    NamedOpponent,
    OnlinePlayer,
    Opponent,
    Presence,
    RoomRemoved,
    RoomSummary,
    RoomUpdated,
    SeekCreated,
    SeekInfo,
    SeekRemoved,
    ServerMessage,
)

MAX_CHAT_LINES = 500
"""Lobby chat lines kept."""

PEOPLE_SHOWN = 12
"""Players the lobby's online pane names; it counts the others."""


@dataclass
class LobbyModel:
    """Everything the lobby screen shows."""

    me: str = ""
    """This client's player name."""
    games: tuple[GameInfo, ...] = ()
    """The games the server hosts, once ``game_list`` arrived."""
    rooms: dict[str, RoomSummary] = field(default_factory=dict)
    """The rooms being played, by id, in the order they appeared."""
    seeks: dict[str, SeekInfo] = field(default_factory=dict)
    """The open seeks and challenges, by id."""
    online: int = 0
    """How many players are connected."""
    present: dict[str, OnlinePlayer] | None = None
    """Who is online, by name in the server's order; ``None`` when the server does not say
    (it speaks protocol version 1)."""
    chat: list[ChatEntry] = field(default_factory=list)
    """The lobby chat, oldest first."""
    chat_epoch: int = 0
    """Bumped whenever :attr:`chat` is replaced rather than added to."""
    chat_total: int = 0
    """Chat lines received since :attr:`chat_epoch` last changed (old ones are dropped)."""
    blocked: frozenset[str] = frozenset()
    """The names (folded) this player has blocked: their chat lines are not shown."""
    blocked_names: tuple[str, ...] = ()
    """The same names as spelled, in the order blocked."""

    def apply(self, message: ServerMessage) -> bool:
        """Apply one lobby message; whether it was one."""
        match message:
            case LobbySnapshot():
                self._reset(message)
            case GameList():
                self.games = message.games
            case SeekCreated():
                self.seeks[message.seek.seek_id] = message.seek
            case SeekRemoved():
                self.seeks.pop(message.seek_id, None)
            case RoomUpdated():
                self.rooms[message.room.room_id] = message.room
            case RoomRemoved():
                self.rooms.pop(message.room_id, None)
            case Presence():
                self._presence(message)
            case Blocks():
                self.blocked_names = message.names
                self.blocked = frozenset(name.lower() for name in message.names)
            case ChatRemoved() if message.room_id is None:
                gone = (message.author, message.text)
                self.chat = [entry for entry in self.chat if (entry.author, entry.text) != gone]
                self.chat_epoch += 1
                self.chat_total = len(self.chat)
            case ChatLine() if message.room_id is None:
                self.chat.append(ChatEntry(author=message.author, text=message.text))
                self.chat_total += 1
                del self.chat[:-MAX_CHAT_LINES]
            case _:
                return False
        return True

    def _reset(self, snapshot: LobbySnapshot) -> None:
        """Replace everything by ``snapshot``."""
        self.rooms = {room.room_id: room for room in snapshot.rooms}
        self.seeks = {seek.seek_id: seek for seek in snapshot.seeks}
        self.online = snapshot.online
        listed = snapshot.present
        self.present = None if listed is None else {entry.name: entry for entry in listed}
        self.chat = list(snapshot.chat[-MAX_CHAT_LINES:])
        self.chat_epoch += 1
        self.chat_total = len(self.chat)

    def _presence(self, message: Presence) -> None:
        """Someone arrived, left, or started or ended a game."""
        self.online = message.online
        present = self.present if self.present is not None else {}
        if message.left:
            present.pop(message.player.name, None)
        else:
            present[message.player.name] = message.player
        self.present = present

    def game(self, name: str) -> GameInfo | None:
        """The server's description of the game ``name``, if it sent one."""
        return next((info for info in self.games if info.name == name), None)

    def active_players(self) -> list[str]:
        """Names seen about the lobby now: seek authors and connected players in running rooms."""
        names = {seek.author for seek in self.seeks.values()}
        for room in self.rooms.values():
            if room.status == "running":
                names.update(seat.name for seat in room.players if seat.connected)
        names.add(self.me)
        names.discard("")
        return sorted(names, key=str.lower)

    def my_seeks(self) -> list[SeekInfo]:
        """The seeks this client made."""
        return [seek for seek in self.seeks.values() if seek.author == self.me]


def people_lines(lobby: LobbyModel, shown: int = PEOPLE_SHOWN) -> list[str]:
    """The online pane: the count, then who is online (people first, then bots, each in
    order of arrival) with a mark for bots and what they play, or the players seen about
    the lobby when the server does not say who is online."""
    lines = [f"{lobby.online} online"]
    if lobby.present is None:
        return [*lines, "about: " + (", ".join(lobby.active_players()) or "nobody yet")]
    players = list(lobby.present.values())
    players.sort(key=lambda player: player.kind != "human")
    lines += [person_line(player, lobby) for player in players[:shown]]
    if len(players) > shown:
        lines.append(f"and {len(players) - shown} more")
    return lines


def person_line(player: OnlinePlayer, lobby: LobbyModel) -> str:
    """One player online: name, marks for bots and oneself, and the game they play."""
    text = _seat_name(player.name, player.kind, True)
    if player.name == lobby.me:
        text += " (you)"
    rooms = [lobby.rooms.get(room_id) for room_id in player.playing]
    if len(rooms) == 1:
        room = rooms[0]
        text += f" · playing {room.title}" if room is not None else " · playing"
    elif rooms:
        text += f" · playing {len(rooms)} games"
    return text


ROOM_COLUMNS = ("game", "players", "state", "move", "watching", "time")
"""The lobby's room table columns."""

SEEK_COLUMNS = ("by", "game", "time", "for", "side", "rated")
"""The lobby's seek table columns."""


def room_row(room: RoomSummary) -> tuple[str, ...]:
    """One room as a table row."""
    players = " vs ".join(_seat_name(seat.name, seat.kind, seat.connected) for seat in room.players)
    state = "playing" if room.status == "running" else room.status
    return (
        room.title,
        players,
        state + (" · rated" if room.rated else ""),
        str(room.ply),
        str(room.spectators),
        describe_time_control(room.time_control),
    )


def seek_row(seek: SeekInfo, me: str) -> tuple[str, ...]:
    """One seek as a table row; ``me`` marks one's own seeks and challenges to one."""
    author = f"{seek.author} (you)" if seek.author == me else seek.author
    if seek.author_rating is not None:
        author += f" {seek.author_rating}{'?' if seek.author_provisional else ''}"
    side = {None: "either", 0: "first", 1: "second"}[seek.side]
    return (
        author,
        seek.title,
        describe_time_control(seek.time_control),
        describe_opponent(seek.opponent, me),
        side,
        _rated_text(seek),
    )


def _rated_text(seek: SeekInfo) -> str:
    """Whether a seek is rated, and the ratings it accepts."""
    if not seek.rated:
        return "no"
    window = seek.rating_range
    if window is None or seek.author_rating is None:
        return "yes"
    return f"yes, {seek.author_rating - window.below}-{seek.author_rating + window.above}"


def describe_opponent(opponent: Opponent, me: str = "") -> str:
    """Whom a seek is for, in a few words."""
    if isinstance(opponent, NamedOpponent):
        return "you" if opponent.name == me else opponent.name
    if isinstance(opponent, AiOpponent):
        return f"AI level {opponent.level}"
    return "anyone"


def _seat_name(name: str, kind: str, connected: bool) -> str:
    """A player's name with marks for bots, the AI and dropped players."""
    mark = {"bot": " [bot]", "ai": " [AI]"}.get(kind, "")
    return name + mark + ("" if connected else " (away)")


TOURNAMENTS_SHOWN = 6
"""Tournaments the lobby's tournaments pane names."""


def tournament_lines(found: dict[str, Any] | None, shown: int = TOURNAMENTS_SHOWN) -> list[str]:
    """The tournaments pane: the running ones, then the upcoming, each with its kind,
    game, players and id (which ``gamut tournaments join ID`` takes); ``found`` is the
    server's ``GET /api/tournaments``, ``None`` if it could not be read."""
    if found is None:
        return ["Tournaments: not listed"]
    lines = ["Tournaments"]
    listed = [("running", t) for t in found.get("running", [])]
    listed += [("soon", t) for t in reversed(found.get("upcoming", []))]
    for status, t in listed[:shown]:
        kind = "arena" if t.get("kind") == "arena" else "round robin"
        lines.append(f"{status}: {t['name']}")
        lines.append(f"  {kind} · {t['game']} · {t['players']} in · {t['id']}")
    if not listed:
        lines.append("none running or coming")
    elif len(listed) > shown:
        lines.append(f"and {len(listed) - shown} more")
    return lines
