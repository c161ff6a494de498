"""Everything the terminal client knows, and where each incoming message goes.

:class:`Session` owns the lobby model, one room model per room followed and the
state of the link. :meth:`Session.handle` takes whatever the connection yields
(a server message, or a notice that the link dropped or came back) and returns
an :class:`Update` saying what changed and whether a game screen should open.
The application only draws what the update names; the decisions live here,
where they are tested without a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamut_client.link import Disconnected, Incoming, Reconnected
from gamut_client.tui.lobby_model import LobbyModel
from gamut_client.tui.room_model import RoomModel
from gamut_protocol import (
    Blocks,
    ErrorMessage,
    Join,
    ReportReceived,
    RoomLeft,
    RoomSnapshot,
    RoomUpdated,
    ServerMessage,
    TournamentStatus,
    Welcome,
)


@dataclass(frozen=True, slots=True)
class LinkState:
    """Whether the client is connected, in words for the status line."""

    up: bool
    """Whether messages flow now."""
    text: str
    """What the status line says."""


CONNECTING = LinkState(False, "connecting…")
"""The state before the first welcome."""


@dataclass(frozen=True, slots=True)
class Update:
    """What one incoming message changed."""

    lobby: bool = False
    """Whether the lobby changed."""
    rooms: frozenset[str] = frozenset()
    """The rooms that changed."""
    open_room: str | None = None
    """A room whose game screen should open now."""
    link: bool = False
    """Whether the link's state changed."""
    notice: str | None = None
    """Something to tell the player that belongs to no room (a refused seek…)."""
    refresh: tuple[Join, ...] = ()
    """Joins to send for fresh snapshots: the clocks of these rooms were paused while
    the link was down, and only the server knows what they read now; or a tournament
    paired this player in a room not followed yet."""


@dataclass
class Session:
    """The client's whole state: the lobby, the rooms followed, the link."""

    lobby: LobbyModel = field(default_factory=LobbyModel)
    """The lobby."""
    rooms: dict[str, RoomModel] = field(default_factory=dict)
    """Each room followed, by id."""
    link: LinkState = CONNECTING
    """The link's state."""
    requested: set[str] = field(default_factory=set)
    """Rooms this client asked to join, whose snapshot should open a game screen."""
    paired: str | None = None
    """The room of this player's latest tournament pairing."""

    @property
    def name(self) -> str:
        """The player's name, once welcomed."""
        return self.lobby.me

    def welcomed(self, welcome: Welcome) -> None:
        """The server welcomed this client (first connection or reconnection)."""
        self.lobby.me = welcome.name
        self.link = LinkState(True, f"connected as {welcome.name}")

    def watch(self, room_id: str) -> None:
        """Note that this client asked to join ``room_id``."""
        self.requested.add(room_id)

    def forget(self, room_id: str) -> None:
        """Stop keeping ``room_id``."""
        self.rooms.pop(room_id, None)
        self.requested.discard(room_id)

    def may_replace(self, shown: str | None, room_id: str) -> bool:
        """Whether a new game in ``room_id`` may take the screen from room ``shown``.

        It may, unless ``shown`` is a game this client is still playing: a game that
        starts meanwhile (an old seek accepted) waits in the lobby instead.
        """
        current = self.rooms.get(shown) if shown is not None else None
        if current is None or shown == room_id:
            return True
        return not (current.running and current.your_side is not None)

    def handle(self, item: Incoming, now: float) -> Update:
        """Apply ``item``, received at ``now``; what changed."""
        match item:
            case Disconnected():
                self.link = LinkState(False, f"connection lost ({item.reason}); reconnecting…")
                for room in self.rooms.values():
                    room.pause_clocks(now)
                return Update(link=True, rooms=frozenset(self.rooms))
            case Reconnected():
                self.welcomed(item.welcome)
                return Update(link=True, refresh=self._paused_rooms())
            case Welcome():
                self.welcomed(item)
                return Update(link=True, lobby=True)
            case RoomSnapshot():
                return self._snapshot(item, now)
            case RoomLeft():
                self.forget(item.room_id)
                return Update(rooms=frozenset({item.room_id}))
            case _:
                return self._message(item, now)

    def _paused_rooms(self) -> tuple[Join, ...]:
        """A ``join`` for each room whose clocks wait for the server's reading."""
        return tuple(
            Join(room_id=room_id, role="spectator" if room.your_side is None else "player")
            for room_id, room in self.rooms.items()
            if room.clock_paused
        )

    def _snapshot(self, snapshot: RoomSnapshot, now: float) -> Update:
        """A room's snapshot: a new game to show, or a known room refreshed."""
        room_id = snapshot.room_id
        known = self.rooms.get(room_id)
        if known is not None:
            known.reset(snapshot, now)
            return Update(rooms=frozenset({room_id}))
        self.rooms[room_id] = RoomModel.from_snapshot(snapshot, now)
        wanted = snapshot.your_side is not None or room_id in self.requested
        self.requested.discard(room_id)
        return Update(rooms=frozenset({room_id}), open_room=room_id if wanted else None)

    def _message(self, message: ServerMessage, now: float) -> Update:
        """Any other server message: to its room, to the lobby, or as a notice."""
        room_id = getattr(message, "room_id", None)
        if isinstance(message, RoomUpdated):
            room_id = message.room.room_id
        room = self.rooms.get(room_id) if isinstance(room_id, str) else None
        changed_room = room is not None and room.apply(message, now)
        changed_lobby = self.lobby.apply(message)
        rooms = frozenset({room.room_id}) if changed_room and room is not None else frozenset()
        notice = answer_notice(message)
        if isinstance(message, ErrorMessage) and not changed_room:
            notice = message.message
            self.requested.discard(message.room_id or "")
        elif isinstance(message, TournamentStatus) and message.message:
            notice = f"Tournament: {message.message}"
        refresh = self._follow(message) if isinstance(message, TournamentStatus) else ()
        return Update(lobby=changed_lobby, rooms=rooms, notice=notice, refresh=refresh)

    def _follow(self, status: TournamentStatus) -> tuple[Join, ...]:
        """Follow the latest tournament pairing: its room, if not followed yet, is
        joined as a player (its snapshot opens the game screen), and an earlier
        pairing's room whose snapshot never came is awaited no more."""
        room_id = status.room_id
        if room_id is None or room_id in self.rooms:
            return ()
        if self.paired is not None and self.paired not in self.rooms:
            self.requested.discard(self.paired)
        self.paired = room_id
        self.requested.add(room_id)
        return (Join(room_id=room_id, role="player"),)


def answer_notice(message: ServerMessage) -> str | None:
    """What to tell the player on an answer to their ``/block``, ``/unblock``,
    ``/challenges`` or ``/report``."""
    if isinstance(message, ReportReceived):
        return f"thank you: the moderators have your report (number {message.report_id})"
    if isinstance(message, Blocks) and message.reply_to is not None:
        blocked = ", ".join(message.names) or "nobody"
        return f"blocked: {blocked}; challenges from {message.challenges_from}"
    return None
