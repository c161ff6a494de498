"""A room: one game between two seats, refereed by the engine, as a synchronous state machine.

The async layer drives a room by calling its methods with the current time in
milliseconds (``now_ms``, from any monotonic source) and performing the effects each
call returns (see :mod:`gamut_server.rooms.effects`). A room never reads the time,
never sleeps and never does I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from gamut_protocol import (
    Abort,
    AcceptDraw,
    Chat,
    DeclineDraw,
    DeclineRematch,
    Join,
    Leave,
    Move,
    OfferDraw,
    Rematch,
    Resign,
    Resume,
    RoomSnapshot,
    RoomSummary,
    SequencedEvent,
)
from gamut_server.rooms.effects import ConnectionId, CorrelationId, Effect, Who
from gamut_server.rooms.spec import RoomConfig, RoomSpec
from gamut_server.storage import ChatLine, GameRecord

RoomMessage: TypeAlias = (
    Join
    | Leave
    | Resume
    | Move
    | Resign
    | OfferDraw
    | AcceptDraw
    | DeclineDraw
    | Abort
    | Rematch
    | DeclineRematch
    | Chat
)
"""The client messages a room handles (a ``chat`` with a ``room_id``)."""


class Room:
    """One game: seats, spectators, the engine state, clocks and the numbered event log."""

    def __init__(self, room_id: str, spec: RoomSpec, config: RoomConfig | None = None) -> None:
        """A room that has not started; call :meth:`start` next."""
        raise NotImplementedError

    @classmethod
    def restore(
        cls,
        record: GameRecord,
        chat: Sequence[ChatLine] = (),
        config: RoomConfig | None = None,
        *,
        now_ms: int,
    ) -> Room:
        """A room rebuilt from storage after a restart, its moves replayed through the engine.

        The clocks restart from the stored ones at ``now_ms``: the downtime is charged
        to nobody. Nobody is connected; each player has the grace period to come back.
        Call :meth:`resume_play` next.
        """
        raise NotImplementedError

    def start(
        self,
        members: Sequence[Who],
        now_ms: int,
        reply_to: tuple[ConnectionId, CorrelationId] | None = None,
    ) -> list[Effect]:
        """Start the game: store it, seat ``members``, send each a snapshot, start the clock."""
        raise NotImplementedError

    def resume_play(self, now_ms: int) -> list[Effect]:
        """After :meth:`restore`: ask the AI if it is to move, or end a game already over."""
        raise NotImplementedError

    def handle(self, who: Who, message: RoomMessage, now_ms: int) -> list[Effect]:
        """Answer one client message about this room."""
        raise NotImplementedError

    def connected(self, who: Who, now_ms: int) -> list[Effect]:
        """Add a connection to the room (a player takes their seat back); no snapshot is sent."""
        raise NotImplementedError

    def disconnected(self, who: Who, now_ms: int) -> list[Effect]:
        """A connection closed; a player's grace period starts when their last one goes."""
        raise NotImplementedError

    def expire(self, now_ms: int) -> list[Effect]:
        """Apply what is due by ``now_ms``: a flag falling, a grace period running out."""
        raise NotImplementedError

    def next_deadline_ms(self) -> int | None:
        """When :meth:`expire` next has something to do; ``None`` when nothing is pending."""
        raise NotImplementedError

    def ai_move(self, ply: int, text: str, now_ms: int) -> list[Effect]:
        """The AI's answer to a :class:`~gamut_server.rooms.effects.RequestAIMove` for ``ply``."""
        raise NotImplementedError

    def snapshot(self, who: Who | None, now_ms: int) -> RoomSnapshot:
        """The room as ``who`` sees it now (``None``: as a spectator)."""
        raise NotImplementedError

    def events_after(self, seq: int) -> list[SequencedEvent] | None:
        """Every event after ``seq``, oldest first; ``None`` if they are no longer all kept."""
        raise NotImplementedError

    def summary(self) -> RoomSummary:
        """The room as the lobby lists it."""
        raise NotImplementedError
