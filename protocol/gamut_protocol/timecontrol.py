"""Time controls and clocks.

A time control is chosen when a game is sought and never changes. Clocks travel in
the messages as the milliseconds each side has left at the moment the server sent
them, plus whose clock is running, so a client counts down locally and corrects
itself on every message.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import Field, StrictInt

from gamut_protocol.common import MAX_MILLIS, Millis, Side, WireModel

SEED_MOVE_MS_PER_CELL: Final = 200
"""Connect Five's standard limit of N/5 seconds on a board of N cells, in ms per cell."""

MoveLimit = Annotated[StrictInt, Field(ge=100, le=MAX_MILLIS)]
"""A per-move time limit in milliseconds (at least 0.1 s)."""


class Untimed(WireModel):
    """No clocks: players take as long as they like."""

    kind: Literal["untimed"] = "untimed"


class PerMove(WireModel):
    """A fixed limit for every move, reset after each move (the standard 5 s, 10 s or N/5 s).

    A player who has not moved when the limit runs out loses on time.
    """

    kind: Literal["per_move"] = "per_move"
    move_ms: MoveLimit
    """Milliseconds allowed for each move."""

    @classmethod
    def for_board(cls, cells: int, ms_per_cell: int = SEED_MOVE_MS_PER_CELL) -> PerMove:
        """Connect Five's standard limit for a board of ``cells`` cells: N/5 seconds."""
        return cls(move_ms=max(100, min(cells * ms_per_cell, MAX_MILLIS)))


class Fischer(WireModel):
    """A total time for the whole game, plus an increment added after each move."""

    kind: Literal["fischer"] = "fischer"
    initial_ms: Annotated[StrictInt, Field(ge=1_000, le=MAX_MILLIS)]
    """Milliseconds on each clock at the start."""
    increment_ms: Annotated[StrictInt, Field(ge=0, le=3_600_000)] = 0
    """Milliseconds added to the mover's clock after each of their moves."""


TimeControl = Annotated[Untimed | PerMove | Fischer, Field(discriminator="kind")]
"""How long players may think: ``untimed``, ``per_move`` or ``fischer`` (total + increment)."""


class Clocks(WireModel):
    """Both clocks when the message was sent."""

    remaining_ms: tuple[Millis, Millis]
    """Milliseconds left for side 0 and side 1 (for ``per_move``: left for the current move)."""
    running: Side | None = None
    """The side whose clock is running, or ``None`` while both are stopped."""

    def remaining(self, side: Side, elapsed_ms: int = 0) -> int:
        """Milliseconds ``side`` has left after ``elapsed_ms`` since the message, never below 0."""
        left = self.remaining_ms[side]
        if side == self.running:
            left -= elapsed_ms
        return max(0, left)
