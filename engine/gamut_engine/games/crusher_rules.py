"""Why a Crusher move is illegal: one reason code and one sentence per broken rule.

The move generator only ever produces legal moves; this module is the referee's side, which
must say in words what is wrong with a move a player (or a program) tried.
"""

from __future__ import annotations

from gamut_engine.core import IllegalMoveError
from gamut_engine.games.crusher_board import Layout
from gamut_engine.games.crusher_moves import CrusherMove

SIDE_NAMES = ("White", "Black")


class MoveChecker:
    """Checks the piece, geometry and landing rules of a move (not the no-repeat rule)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout

    def cell_index(self, name: str) -> int:
        """The cell order index of a cell name; ``off_board`` if the board has no such cell."""
        index = self.layout.index.get(name.lower())
        if index is None:
            last = self.layout.rows[-1][0][0]
            raise IllegalMoveError(
                "off_board",
                f"There is no cell {name} on this board: rows run from a to {last}, and each "
                f"row's cells are numbered from 1 at its left end.",
            )
        return index

    def owner(self, board: int, cell: int) -> int | None:
        """The side owning ``cell`` on a board int, or ``None`` if it is empty."""
        bit = self.layout.bits[cell]
        if board & bit:
            return 0
        if (board >> self.layout.half) & bit:
            return 1
        return None

    def check(self, board: int, side: int, move: CrusherMove) -> None:
        """Raise :class:`IllegalMoveError` if ``side`` may not play ``move`` on ``board``."""
        origin, target, crush = move
        cells = len(self.layout.names)
        if not (0 <= origin < cells and 0 <= target < cells):
            raise IllegalMoveError("off_board", "Both cells of a move must be on the board.")
        names = self.layout.names
        mover = self.owner(board, origin)
        if mover is None:
            raise IllegalMoveError("no_piece", f"There is no piece on {names[origin]} to move.")
        if mover != side:
            raise IllegalMoveError(
                "not_your_piece",
                f"The piece on {names[origin]} is {SIDE_NAMES[mover]}'s; "
                f"{SIDE_NAMES[side]} is to move.",
            )
        landing = self.owner(board, target)
        if target in self.layout.neighbours[origin]:
            self._check_slide(side, names[target], landing, crush)
            return
        if target not in self.layout.beyond[origin]:
            raise IllegalMoveError(
                "not_adjacent",
                f"{names[target]} is neither next to {names[origin]} nor two cells beyond it in "
                f"a straight line, so the piece can neither slide nor leap there.",
            )
        direction = self.layout.beyond[origin].index(target)
        over = self.layout.neighbours[origin][direction]
        assert over is not None  # a cell two steps away has one in between
        self._check_leap(side, names[over], self.owner(board, over), names[target], landing, crush)

    @staticmethod
    def _check_slide(side: int, target: str, landing: int | None, crush: bool) -> None:
        if landing == side:
            raise IllegalMoveError(
                "occupied",
                f"A piece slides only onto an empty cell, and {target} holds one of your pieces.",
            )
        if landing is not None:
            raise IllegalMoveError(
                "occupied",
                f"A piece slides only onto an empty cell, and {target} holds an enemy piece: "
                f"crushing it takes a leap over one of your own pieces.",
            )
        if crush:
            raise IllegalMoveError("nothing_to_crush", f"There is no enemy piece on {target}.")

    @staticmethod
    def _check_leap(
        side: int, over: str, middle: int | None, target: str, landing: int | None, crush: bool
    ) -> None:
        if landing == side:
            raise IllegalMoveError(
                "occupied",
                f"A piece cannot leap onto one of its own pieces, and {target} holds one.",
            )
        if middle != side:
            what = "is empty" if middle is None else "holds an enemy piece"
            raise IllegalMoveError(
                "no_piece_to_leap",
                f"A leap must jump over one of your own pieces, and {over} {what}.",
            )
        if landing is None and crush:
            raise IllegalMoveError("nothing_to_crush", f"There is no enemy piece on {target}.")
        if landing is not None and not crush:
            raise IllegalMoveError(
                "crush_not_marked",
                f"Leaping onto {target} crushes the enemy piece there, so the move is a crush.",
            )
