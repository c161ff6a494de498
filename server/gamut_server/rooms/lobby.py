"""The lobby: who is online, open seeks and challenges, pairing, and lobby chat.

Like a room, the lobby is a synchronous state machine: each call returns the effects
for the async layer to perform (see :mod:`gamut_server.rooms.effects`).

- A seek against the AI starts a room at once (an
  :class:`~gamut_server.rooms.effects.OpenRoom` whose snapshot answers the seek).
- An open seek is announced to every lobby subscriber; a challenge only to its author
  and the challenged player's connections. ``accept_seek`` pairs the two players in a
  new room; sides follow the seek's ``side`` or are drawn by lot.
- A player has at most ``LobbyConfig.max_seeks`` open seeks and sits in at most
  ``LobbyConfig.max_rooms`` unfinished games; more are refused.
- A connection's seeks expire when it closes, as do challenges to a player who has
  no connection left.
- The lobby lists running rooms only: a room whose game ends is removed from it.
- Lobby chat lines have no sequence number and are not stored.
- Subscribers that speak protocol version 2 (``enter(..., presence=True)``) see who is
  online: the snapshot's ``present`` list, then a ``presence`` message whenever a
  player's first connection arrives, their last one leaves, or a game of theirs starts
  or ends.

The lobby's parts are in modules of their own: who is in it and who hears what
(:mod:`~gamut_server.rooms.lobby_audience`), the list of running rooms
(:mod:`~gamut_server.rooms.lobby_rooms`), the chat (:mod:`~gamut_server.rooms.lobby_chat`)
and the open seeks (:mod:`~gamut_server.rooms.seeks`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, TypeAlias

from gamut_protocol import (
    AcceptSeek,
    AiOpponent,
    CancelSeek,
    Chat,
    ChatEntry,
    ChatLine,
    ChatRemoved,
    GameList,
    ListGames,
    ListRooms,
    LobbySnapshot,
    NamedOpponent,
    RoomList,
    RoomRemoved,
    RoomSummary,
    RoomUpdated,
    Seek,
    SeekCreated,
    SeekRemoved,
)
from gamut_protocol.common import MAX_LIST_LENGTH
from gamut_server.rooms.blocks import BlockBook
from gamut_server.rooms.catalog import (
    BadOptionsError,
    UnknownGameError,
    check_options,
    full_options,
    game_infos,
)
from gamut_server.rooms.challenges import ChallengeAllowance
from gamut_server.rooms.effects import (
    ConnectionId,
    CorrelationId,
    Effect,
    OpenRoom,
    SeekKept,
    Send,
    Who,
)
from gamut_server.rooms.lobby_audience import LobbyAudience, send_split
from gamut_server.rooms.lobby_chat import LobbyChat
from gamut_server.rooms.lobby_rooms import RoomBoard
from gamut_server.rooms.rated import check_acceptor, rated_category, shown_rating
from gamut_server.rooms.refusal import RefusalError
from gamut_server.rooms.seeks import OpenSeek, SeekBook, coin, seek_info
from gamut_server.rooms.spec import LobbyConfig, RoomSpec, SeatSpec, ai_seat

LobbyMessage: TypeAlias = ListGames | ListRooms | Seek | CancelSeek | AcceptSeek | Chat
"""The client messages the lobby handles (a ``chat`` without a ``room_id``)."""


class Lobby:
    """Everyone connected, the open seeks, the live rooms' summaries and the lobby chat."""

    def __init__(self, config: LobbyConfig | None = None) -> None:
        """An empty lobby."""
        self.config = config if config is not None else LobbyConfig()
        """Caps, history size, room ids and the coin for sides."""
        self._choose_side = self.config.choose_side or coin()
        self.blocks = BlockBook()
        """Who has blocked whom, and whom each player accepts challenges from."""
        self._audience = LobbyAudience(self.blocks)
        self._seeks = SeekBook(self.config.seek_prefix)
        self._rooms = RoomBoard()
        self._chat = LobbyChat(self.config.chat_history)
        self._challenges = ChallengeAllowance(
            self.config.challenges, self.config.max_challenges_waiting
        )

    # --- connections -----------------------------------------------------------------

    def enter(
        self,
        who: Who,
        now_ms: int,
        *,
        subscribe: bool = True,
        presence: bool = False,
        reply_to: CorrelationId | None = None,
        seeks: Iterable[OpenSeek] = (),
    ) -> list[Effect]:
        """A connection was welcomed; with ``subscribe`` it gets the snapshot and updates,
        and with ``presence`` too (protocol version 2 on) who is online. ``seeks`` are
        its seeks kept from an earlier lobby (on a cluster whose lobby changed node):
        they are open again, under the same ids, and announced."""
        first = self._audience.arrive(who)
        effects = self._audience.announce([who.name], exclude=who.conn) if first else []
        for seek in seeks:
            effects += self._reopen(seek)
        if not subscribe:
            return effects
        self._audience.subscribe(who.conn, presence=presence)
        snapshot = self.snapshot(who, presence=presence)
        effects.insert(0, Send((who.conn,), snapshot.model_copy(update={"reply_to": reply_to})))
        return effects

    def _reopen(self, seek: OpenSeek) -> list[Effect]:
        """Open again a seek kept from an earlier lobby, announced to all but its author
        (who has it, and gets it in its snapshot); nothing if its author has as many
        seeks open as allowed, or it is open already."""
        if len(self._seeks.by_author(seek.author.name)) >= self.config.max_seeks:
            return [SeekKept(seek.author, seek.seek_id)]
        reopened = self._seeks.restore(seek)
        if reopened is None:
            return []
        created = SeekCreated(seek=reopened.info)
        audience = tuple(sorted(self._audience.of_seek(reopened) - {seek.author.conn}))
        kept = SeekKept(seek.author, reopened.seek_id, reopened.info)
        renamed = [] if reopened is seek else [SeekKept(seek.author, seek.seek_id)]
        return [kept, *renamed, *([Send(audience, created)] if audience else [])]

    def leave(self, who: Who, now_ms: int) -> list[Effect]:
        """A connection closed: its seeks and the challenges to it expire."""
        last = self._audience.depart(who)
        gone = self._seeks.made_on(who.conn)
        if last:
            gone += self._seeks.challenging(who.name)
            self._challenges.forget(who.name)
            self.blocks.forget(who.name)
        effects: list[Effect] = []
        for seek in gone:
            if self._seeks.remove(seek.seek_id) is not None:
                effects += self._announce_removal(seek, "expired")
        if last:
            effects += self._audience.announce_departure(who)
        return effects

    def connected(self) -> tuple[Who, ...]:
        """Every connection in the lobby."""
        return tuple(self._audience.online.values())

    def listed(self, game: str | None = None) -> tuple[RoomSummary, ...]:
        """The running rooms the lobby lists (of ``game``, if given)."""
        return self._rooms.listing(game)

    @property
    def online(self) -> int:
        """How many connections are in the lobby."""
        return len(self._audience.online)

    @property
    def players_online(self) -> int:
        """How many players (names) are online, however many connections each has."""
        return self._audience.roster.count

    # --- messages --------------------------------------------------------------------

    def handle(self, who: Who, message: LobbyMessage, now_ms: int) -> list[Effect]:
        """Answer one lobby message: list games or rooms, seek, cancel, accept, chat."""
        try:
            return self._dispatch(who, message, now_ms)
        except RefusalError as refusal:
            return [Send((who.conn,), refusal.to_message(message.type, message.id))]

    def _dispatch(self, who: Who, message: LobbyMessage, now_ms: int) -> list[Effect]:
        """The effects of ``message``, or a :class:`RefusalError`."""
        if isinstance(message, ListGames):
            return [Send((who.conn,), GameList(games=game_infos(), reply_to=message.id))]
        if isinstance(message, ListRooms):
            rooms = self._rooms.listing(message.game)
            return [Send((who.conn,), RoomList(rooms=rooms, reply_to=message.id))]
        if isinstance(message, Seek):
            return self._on_seek(who, message, now_ms)
        if isinstance(message, CancelSeek):
            return self._on_cancel(who, message)
        if isinstance(message, AcceptSeek):
            return self._on_accept(who, message)
        return self._on_chat(who, message)

    def _on_seek(self, who: Who, message: Seek, now_ms: int) -> list[Effect]:
        """Start a game against the AI, or open a seek or a challenge."""
        try:
            game = check_options(message.game, message.options)
        except UnknownGameError as error:
            raise RefusalError("unknown_game", str(error)) from None
        except BadOptionsError as error:
            raise RefusalError("bad_options", str(error)) from None
        options = full_options(game)
        opponent = message.opponent
        rating = None
        if message.rated:
            rating = shown_rating(who, rated_category(who, message))
        if isinstance(opponent, AiOpponent):
            return self._play_ai(who, message, options, opponent.level)
        if isinstance(opponent, NamedOpponent):
            opponent = NamedOpponent(name=self._audience.roster.spelling(opponent.name))
            message = message.model_copy(update={"opponent": opponent})
            self._check_challenge(who, opponent.name)
        if len(self._seeks.by_author(who.name)) >= self.config.max_seeks:
            raise RefusalError(
                "too_many_seeks", f"you may have {self.config.max_seeks} open seeks at most"
            )
        if isinstance(opponent, NamedOpponent):
            waiting = len(self._seeks.challenging(opponent.name))
            self._challenges.receive(opponent.name, waiting, now_ms)
        info = seek_info(self._seeks.new_id(), who.name, game.title, message, options, rating)
        seek = OpenSeek(info, who)
        self._seeks.add(seek)
        created = send_split(
            self._audience.of_seek(seek), SeekCreated(seek=info), who.conn, message.id
        )
        return [SeekKept(who, seek.seek_id, info, message.id), *created]

    def _check_challenge(self, who: Who, name: str) -> None:
        """Refuse a challenge to oneself or to a player who is not connected."""
        if name == who.name:
            raise RefusalError("own_seek", "you cannot challenge yourself")
        if not self._audience.connections_of(name):
            raise RefusalError("unknown_player", f"{name} is not connected")
        refusal = self.blocks.challenge_refusal(who, name)
        if refusal is not None:
            raise RefusalError("refused", refusal)

    def _play_ai(
        self, who: Who, message: Seek, options: dict[str, bool | int | str], level: int
    ) -> list[Effect]:
        """Open a room against the AI at once; its snapshot answers the seek."""
        self._check_room_cap(who.name, "you")
        side = message.side if message.side is not None else self._choose_side()
        player = SeatSpec(name=who.name, kind=who.kind, account=who.account)
        seats = (player, ai_seat(level)) if side == 0 else (ai_seat(level), player)
        spec = RoomSpec(
            game=message.game,
            options=options,
            seats=seats,
            time_control=message.time_control,
            rated=message.rated,
        )
        opening, presence = self._open_room(spec, (who,), who.conn, message.id)
        return [opening, *presence]

    def _on_cancel(self, who: Who, message: CancelSeek) -> list[Effect]:
        """Withdraw one's own seek."""
        seek = self._seeks.get(message.seek_id, who)
        if seek is None:
            raise RefusalError("unknown_seek", f"no open seek has the id {message.seek_id!r}")
        if seek.author.name != who.name:
            raise RefusalError("own_seek", "only the seek's author may cancel it")
        self._seeks.remove(seek.seek_id)
        return self._announce_removal(seek, "cancelled", None, (who.conn, message.id))

    def _on_accept(self, who: Who, message: AcceptSeek) -> list[Effect]:
        """Pair the seek's author with ``who`` in a new room."""
        seek = self._seeks.get(message.seek_id, who)
        if seek is None:
            raise RefusalError("unknown_seek", f"no open seek has the id {message.seek_id!r}")
        if seek.author.name == who.name:
            raise RefusalError("own_seek", "you cannot accept your own seek")
        if self.blocks.apart(seek.author.name, who.name):
            raise RefusalError("unknown_seek", f"no open seek has the id {message.seek_id!r}")
        rating = check_acceptor(seek.info, who) if seek.info.rated else None
        self._check_room_cap(who.name, "you")
        self._check_room_cap(seek.author.name, seek.author.name)
        side = seek.info.side if seek.info.side is not None else self._choose_side()
        self._seeks.remove(seek.seek_id)
        members = (seek.author, who)
        spec = seek.spec(who, side, rating)
        opening, presence = self._open_room(spec, members, who.conn, message.id)
        removal = self._announce_removal(seek, "accepted", opening.room_id)
        return [*removal, opening, *presence]

    def _on_chat(self, who: Who, message: Chat) -> list[Effect]:
        """Say something to everyone in the lobby."""
        self._chat.add(who.name, message.text)
        line = ChatLine(author=who.name, text=message.text)
        audience = self._audience.readers_of(who.name)
        return send_split(audience | {who.conn}, line, who.conn, message.id)

    # --- rooms -----------------------------------------------------------------------

    def room_changed(self, summary: RoomSummary) -> list[Effect]:
        """A room appeared or changed (from a room's ``RoomChanged`` effect).

        A finished room leaves the live lobby at once (it stays reachable by its id
        for a rematch or a late spectator until it leaves memory).
        """
        if summary.status != "running":
            return self.room_removed(summary.room_id)
        self._rooms.put(summary)
        names = (summary.players[0].name, summary.players[1].name)
        changed = self._audience.roster.seat(summary.room_id, names)
        return [
            *self._audience.to_subscribers(RoomUpdated(room=summary)),
            *self._audience.announce(changed),
        ]

    def room_moved(self, room_id: str, ply: int) -> list[Effect]:
        """A move was played in a listed room: only its ply changed. With nobody following
        the lobby, the summary is brought up to date only when the list is next read."""
        summary = self._rooms.moved(room_id, ply, followed=bool(self._audience.subscribed))
        if summary is None:
            return []
        return self._audience.to_subscribers(RoomUpdated(room=summary))

    def room_removed(self, room_id: str) -> list[Effect]:
        """A room left memory; it leaves the lobby's list."""
        presence = self._audience.announce(self._audience.roster.unseat(room_id))
        if not self._rooms.remove(room_id):
            return presence
        return [*self._audience.to_subscribers(RoomRemoved(room_id=room_id)), *presence]

    def remove_chat(self, author: str, text: str) -> list[Effect]:
        """A moderator removes a lobby chat line (each one by ``author`` saying ``text``)
        for everyone: it leaves the snapshots, and every subscriber is told."""
        if not self._chat.remove(author, text):
            return []
        return self._audience.to_subscribers(ChatRemoved(author=author, text=text))

    def recent_chat(self, count: int) -> tuple[ChatEntry, ...]:
        """The latest ``count`` lobby chat lines, oldest first."""
        return self._chat.recent(count)

    def rooms_of(self, name: str) -> tuple[str, ...]:
        """The unfinished rooms where ``name`` has a seat (for ``welcome.rooms``)."""
        return self._audience.roster.rooms_of(name)

    def _open_room(
        self,
        spec: RoomSpec,
        members: tuple[Who, ...],
        conn: ConnectionId,
        reply: CorrelationId | None,
    ) -> tuple[OpenRoom, list[Effect]]:
        """The effect opening a new room for ``spec``, counted against both players' caps,
        and the ``presence`` messages saying that its players now play."""
        room_id = self.config.new_room_id()
        changed = self._audience.roster.seat(room_id, (spec.seats[0].name, spec.seats[1].name))
        reply_to = (conn, reply) if reply is not None else None
        opening = OpenRoom(room_id=room_id, spec=spec, members=members, reply_to=reply_to)
        return opening, self._audience.announce(changed)

    def _check_room_cap(self, name: str, subject: str) -> None:
        """Refuse a new game to a player already in as many as allowed."""
        playing = len(self.rooms_of(name))
        if playing >= self.config.max_rooms:
            raise RefusalError(
                "unavailable",
                f"{subject} already play {playing} games, the most allowed: finish one first",
            )

    # --- views and seeks' removal -----------------------------------------------------

    def snapshot(self, who: Who, *, presence: bool = False) -> LobbySnapshot:
        """The lobby as ``who`` sees it (open seeks, challenges to them, rooms, chat), and
        with ``presence`` who is online."""
        seeks = tuple(
            seek.info
            for seek in self._seeks.visible_to(who)
            if not self.blocks.apart(seek.author.name, who.name)
        )
        chat = self._chat.seen_by(who.name, self.blocks)
        limit = min(self.config.max_listed_online, MAX_LIST_LENGTH)
        return LobbySnapshot(
            seeks=seeks[-MAX_LIST_LENGTH:],
            rooms=self._rooms.listing(None),
            online=self._audience.roster.count,
            present=self._audience.roster.listing(limit) if presence else None,
            chat=chat,
        )

    def _announce_removal(
        self,
        seek: OpenSeek,
        reason: Literal["accepted", "cancelled", "expired"],
        room_id: str | None = None,
        reply: tuple[ConnectionId, CorrelationId | None] | None = None,
    ) -> list[Effect]:
        """Tell everyone who saw ``seek`` that it is gone, and why."""
        removed = SeekRemoved(seek_id=seek.seek_id, reason=reason, room_id=room_id)
        audience = self._audience.of_seek(seek) & set(self._audience.online)
        closed = SeekKept(seek.author, seek.seek_id)
        if reply is None:
            return [closed, Send(tuple(sorted(audience)), removed)] if audience else [closed]
        return [closed, *send_split(audience | {reply[0]}, removed, reply[0], reply[1])]
