"""Crusher move generation on bitboards: slides, leaps and crushes, repeats left out.

A board int holds White's pieces in its low :attr:`Layout.half` bits and Black's above them
(grid order, see :mod:`gamut_engine.games.crusher_board`). For each of the six directions
one shift of the mover's pieces gives every slide target, and two shifts through the
mover's own pieces give every leap; the precomputed move objects are then looked up by
direction and target bit, so generation allocates nothing but the result lists.
"""

from __future__ import annotations

from typing import NamedTuple

from gamut_engine.games.crusher_board import Layout


class CrusherMove(NamedTuple):
    """One move: a piece goes from ``origin`` to ``target`` (cell order indices).

    ``crush`` is true for a leap that lands on an enemy piece and removes it.
    """

    origin: int
    """Cell order index of the moving piece."""
    target: int
    """Cell order index where it lands."""
    crush: bool
    """Whether the move crushes the enemy piece on ``target``."""


MoveTable = tuple[tuple[CrusherMove | None, ...], ...]
"""For each direction, the move landing on each grid bit index (``None`` off the board)."""


def _shift(bits: int, step: int) -> int:
    return bits << step if step > 0 else bits >> -step


class MoveGenerator:
    """Legal move lists, crush targets and the "can move at all" test for one board size."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.slides = self._table(1, crush=False)
        self.leaps = self._table(2, crush=False)
        self.crushes = self._table(2, crush=True)

    def _table(self, distance: int, *, crush: bool) -> MoveTable:
        layout = self.layout
        size = layout.half
        tables: list[tuple[CrusherMove | None, ...]] = []
        for direction in range(6):
            row: list[CrusherMove | None] = [None] * size
            for origin, targets in enumerate(layout.neighbours if distance == 1 else layout.beyond):
                target = targets[direction]
                if target is not None:
                    row[layout.grid[target]] = CrusherMove(origin, target, crush)
            tables.append(tuple(row))
        return tuple(tables)

    def sides(self, board: int, side: int) -> tuple[int, int, int]:
        """The mover's pieces, the enemy's pieces and the empty cells, as grid bitboards."""
        layout = self.layout
        white = board & layout.mask
        black = board >> layout.half
        own, enemy = (white, black) if side == 0 else (black, white)
        return own, enemy, layout.mask & ~(own | enemy)

    def delta(self, move: CrusherMove, side: int) -> int:
        """What ``move`` by ``side`` XORs into a board int."""
        bits = self.layout.bits
        half = self.layout.half
        change = (bits[move.origin] | bits[move.target]) << (half * side)
        if move.crush:
            change |= bits[move.target] << (half * (1 - side))
        return change

    def moves(self, board: int, side: int, history: frozenset[int]) -> list[CrusherMove]:
        """Every legal move: crushes first, then other leaps, then slides.

        Moves whose resulting board is in ``history`` are left out.
        """
        own, enemy, empty = self.sides(board, side)
        crushes: list[CrusherMove] = []
        leaps: list[CrusherMove] = []
        slides: list[CrusherMove] = []
        for direction, step in enumerate(self.layout.shifts):
            ahead = _shift(own, step)
            landing = _shift(ahead & own, step)
            self._collect(crushes, self.crushes[direction], landing & enemy)
            self._collect(leaps, self.leaps[direction], landing & empty)
            self._collect(slides, self.slides[direction], ahead & empty)
        moves = crushes + leaps + slides
        if history:
            moves = [m for m in moves if board ^ self.delta(m, side) not in history]
        return moves

    @staticmethod
    def _collect(into: list[CrusherMove], table: tuple[CrusherMove | None, ...], bits: int) -> None:
        while bits:
            low = bits & -bits
            move = table[low.bit_length() - 1]
            if move is not None:
                into.append(move)
            bits ^= low

    def has_move(self, board: int, side: int, history: frozenset[int]) -> bool:
        """Whether ``side`` has any legal move (stopping at the first one found)."""
        own, enemy, empty = self.sides(board, side)
        for direction, step in enumerate(self.layout.shifts):
            ahead = _shift(own, step)
            landing = _shift(ahead & own, step)
            groups = (
                (self.slides[direction], ahead & empty),
                (self.leaps[direction], landing & empty),
                (self.crushes[direction], landing & enemy),
            )
            for table, bits in groups:
                if bits and not history:
                    return True
                while bits:
                    low = bits & -bits
                    move = table[low.bit_length() - 1]
                    if move is not None and board ^ self.delta(move, side) not in history:
                        return True
                    bits ^= low
        return False

    def crush_targets(self, own: int, enemy: int) -> int:
        """The enemy pieces that ``own`` could crush with one leap (repeats not considered)."""
        targets = 0
        for step in self.layout.shifts:
            targets |= _shift(_shift(own, step) & own, step)
        return targets & enemy
