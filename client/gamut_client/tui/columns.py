"""How the game screen shares the terminal's width between the board and the side panels.

The board column is as wide as it likes (:data:`LEFT_WIDTH`, more for a wide board)
when the terminal has room; in a narrower one it gives up its spare width, down to the
board's own, so the players, the moves and the chat keep at least :data:`RIGHT_WIDTH`
columns beside it. When even the board's own width leaves them fewer than
:data:`RIGHT_MIN_WIDTH`, the panels go under the board and the screen scrolls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

LEFT_WIDTH: Final = 56
"""The board column's width when the terminal has room (more if the board needs it)."""

BOARD_MARGIN: Final = 7
"""Columns the board column adds around the board's picture: the board's border and
padding, the column's own padding and its scroll bar."""

RIGHT_WIDTH: Final = 30
"""The side panels' width that the board column narrows to leave them."""

RIGHT_MIN_WIDTH: Final = 22
"""The narrowest side panels shown beside the board; narrower, they go under it."""


@dataclass(frozen=True, slots=True)
class Columns:
    """The board column's width, and whether the side panels go under it."""

    left: int
    """The board column's width, in cells (the whole width when stacked)."""
    stacked: bool
    """Whether the side panels are under the board column rather than beside it."""


def fit_columns(width: int, board_width: int) -> Columns:
    """The columns of a terminal ``width`` cells wide for a board ``board_width`` wide."""
    least = board_width + BOARD_MARGIN
    left = max(least, min(max(LEFT_WIDTH, least), width - RIGHT_WIDTH))
    if width - left < RIGHT_MIN_WIDTH:
        return Columns(left=width, stacked=True)
    return Columns(left=left, stacked=False)
