"""What a room is and what it shows: its state, the views sent to clients, who is asking.

:class:`RoomState` is the read side of :class:`~gamut_server.rooms.room.Room`: the game,
the members, the event log and chat, the snapshot and summary made from them, and the
checks of who a message comes from. The steps that change it are
:class:`~gamut_server.rooms.room_core.RoomCore`'s; the rules are in
:mod:`gamut_server.rooms.room`.
"""

from __future__ import annotations

from collections import deque

from gamut_protocol import (
    ChatEntry,
    GameRated,
    RoomSnapshot,
    RoomSummary,
    Seat,
    SequencedEvent,
    Side,
)
from gamut_server.rooms.clock import GameClock
from gamut_server.rooms.describe import describe, hosted_game
from gamut_server.rooms.effects import ConnectionId, Who
from gamut_server.rooms.events import EventLog
from gamut_server.rooms.match import Match
from gamut_server.rooms.members import Members
from gamut_server.rooms.refusal import RefusalError
from gamut_server.rooms.spec import RoomConfig, RoomSpec


class RoomState:
    """A room's state and views; :class:`~gamut_server.rooms.room_core.RoomCore` adds the
    steps that change it."""

    def __init__(self, room_id: str, spec: RoomSpec, config: RoomConfig | None = None) -> None:
        """A room that has not started; call :meth:`start` next."""
        self.room_id = room_id
        """The room's id, which is also the stored game's id."""
        self.spec = spec
        """The game, options, time control and seats."""
        self.config = config if config is not None else RoomConfig()
        """Grace periods, history sizes and the like."""
        game = hosted_game(spec.game, spec.options)
        clock = GameClock(spec.time_control, lag_allowance_ms=self.config.lag_allowance_ms)
        self.match = Match(game, spec.time_control, clock)
        """The game itself: position, moves, clocks, result."""
        self.descriptor = describe(game)
        """The game as clients draw it."""
        self.members = Members()
        """The connections following the room."""
        self.log = EventLog(keep=self.config.max_events)
        """The numbered events, for replay."""
        self.chat: deque[ChatEntry] = deque(maxlen=self.config.chat_history)
        """The latest chat lines."""
        self.started = False
        """Whether :meth:`start` (or :meth:`restore`) has run."""
        self.draw_offer: int | None = None
        """The side whose draw offer is pending."""
        self.rematch_offer: int | None = None
        """The side whose rematch offer is pending."""
        self.rematch_room: str | None = None
        """The rematch's room, once both agreed."""
        self.ai_pending: int | None = None
        """The ply the AI has been asked to answer, until it does."""
        self.finished_at_ms: int | None = None
        """When the game ended (``now_ms``), for the async layer's clean-up."""
        self.rating: GameRated | None = None
        """How the game moved its players' ratings, once a rated game between people
        has been rated."""
        self._last_summary: RoomSummary | None = None
        self._last_changes: tuple[str, int] | None = None
        self._listed_ply = 0

    # --- views -----------------------------------------------------------------------

    def snapshot(self, who: Who | None, now_ms: int) -> RoomSnapshot:
        """The room as ``who`` sees it now (``None``: as a spectator)."""
        member = self.members.get(who.conn) if who is not None else None
        side = member.side if member is not None else None
        match = self.match
        return RoomSnapshot(
            room_id=self.room_id,
            seq=self.log.last_seq,
            status=match.status,
            game=self.descriptor,
            time_control=self.spec.time_control,
            rated=self.spec.rated,
            players=self.seats(),
            your_side=_side(side),
            spectators=self.members.spectators(),
            position=match.position(),
            legal_moves=match.legal(),
            moves=tuple(match.moves),
            clocks=match.clock.clocks(now_ms),
            result=match.result,
            draw_offer=_side(self.draw_offer),
            rematch_offer=_side(self.rematch_offer),
            chat=tuple(self.chat),
            ratings=None if self.rating is None else self.rating.players,
        )

    def events_after(self, seq: int) -> list[SequencedEvent] | None:
        """Every event after ``seq``, oldest first; ``None`` if they are no longer all kept."""
        return self.log.after(seq)

    def summary(self) -> RoomSummary:
        """The room as the lobby lists it."""
        return RoomSummary(
            room_id=self.room_id,
            game=self.spec.game,
            options=self.descriptor.options,
            title=self.descriptor.title,
            time_control=self.spec.time_control,
            players=self.seats(),
            status=self.match.status,
            ply=self.match.ply,
            spectators=self.members.spectators(),
            rated=self.spec.rated,
        )

    def seats(self) -> tuple[Seat, Seat]:
        """Who plays each side, and whether they are connected."""
        first, second = (
            Seat(
                name=seat.name,
                kind=seat.kind,
                connected=seat.is_ai or self.members.seated(side),
                rating=seat.rating,
                provisional=seat.provisional or None,
            )
            for side, seat in enumerate(self.spec.seats)
        )
        return first, second

    @property
    def seq(self) -> int:
        """The sequence number of the room's latest event."""
        return self.log.last_seq

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.match.over

    def follows(self, conn: ConnectionId) -> bool:
        """Whether connection ``conn`` is in the room (as a player or a spectator).

        The async layer can ask this after any call to learn which rooms a
        connection is in (a ``join`` or a ``resume`` adds it, a ``leave`` removes it),
        so that it calls :meth:`Room.disconnected` for each when the connection closes.
        """
        return self.members.get(conn) is not None

    def player_names(self) -> tuple[str, str]:
        """The names on side 0 and side 1."""
        return self.spec.seats[0].name, self.spec.seats[1].name

    # --- who is asking ---------------------------------------------------------------

    def _seat_of(self, who: Who) -> int | None:
        """The side whose seat belongs to ``who``'s player, if any (never the AI's)."""
        for side, seat in enumerate(self.spec.seats):
            if not seat.is_ai and seat.name == who.name:
                return side
        return None

    def _member_side(self, who: Who) -> int | None:
        """The side ``who``'s connection plays here (``None``: watching); not_in_room if none."""
        member = self.members.get(who.conn)
        if member is None:
            raise RefusalError("not_in_room", f"join room {self.room_id} first")
        return member.side

    def _player(self, who: Who) -> int:
        """The side ``who``'s connection plays; not_in_room or not_a_player otherwise."""
        side = self._member_side(who)
        if side is None:
            raise RefusalError("not_a_player", "only the room's players may do this")
        return side

    def _running_player(self, who: Who) -> int:
        """Like :meth:`_player`, and the game must still be on (``game_over`` if not)."""
        side = self._player(who)
        if self.match.over:
            raise RefusalError("game_over", "the game is over")
        return side


def wire_side(side: int) -> Side:
    """A side index as the protocol's ``0`` or ``1``."""
    return 0 if side == 0 else 1


def _side(side: int | None) -> Side | None:
    """A side index as the protocol's ``0``/``1``, or ``None``."""
    return None if side is None else wire_side(side)
