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


class MoveGenerator:
    """Legal move lists, crush targets and the "can move at all" test for one board size."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.slides = self._table(1, crush=False)
        """Slide landing on each grid bit, by direction."""
        self.leaps = self._table(2, crush=False)
        """Leap to an empty cell landing on each grid bit, by direction."""
        self.crushes = self._table(2, crush=True)
        """Crushing leap landing on each grid bit, by direction."""
        kinds = (self.crushes, self.leaps, self.slides)
        self.deltas = tuple(
            tuple(self._delta_table(table, side) for table in kinds) for side in (0, 1)
        )
        """For each side, then crushes/leaps/slides and direction: each move's board XOR."""

    def _table(self, distance: int, *, crush: bool) -> MoveTable:
        layout = self.layout
        steps = layout.neighbours if distance == 1 else layout.beyond
        tables: list[tuple[CrusherMove | None, ...]] = []
        for direction in range(6):
            row: list[CrusherMove | None] = [None] * layout.half
            for origin, targets in enumerate(steps):
                target = targets[direction]
                if target is not None:
                    row[layout.grid[target]] = CrusherMove(origin, target, crush)
            tables.append(tuple(row))
        return tuple(tables)

    def _delta_table(self, table: MoveTable, side: int) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(0 if move is None else self.delta(move, side) for move in row) for row in table
        )

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
        found: tuple[list[CrusherMove], list[CrusherMove], list[CrusherMove]] = ([], [], [])
        tables = (self.crushes, self.leaps, self.slides)
        deltas = self.deltas[side]
        for direction, step in enumerate(self.layout.shifts):
            ahead = own << step if step > 0 else own >> -step
            over = ahead & own
            landing = over << step if step > 0 else over >> -step
            targets = (landing & enemy, landing & empty, ahead & empty)
            for kind in range(3):
                bits = targets[kind]
                if not bits:
                    continue
                table = tables[kind][direction]
                delta = deltas[kind][direction]
                into = found[kind]
                while bits:
                    low = bits & -bits
                    grid = low.bit_length() - 1
                    if not history or board ^ delta[grid] not in history:
                        into.append(table[grid])  # type: ignore[arg-type]
                    bits ^= low
        return found[0] + found[1] + found[2]

    def has_move(self, board: int, side: int, history: frozenset[int]) -> bool:
        """Whether ``side`` has any legal move (stopping at the first one found)."""
        own, enemy, empty = self.sides(board, side)
        deltas = self.deltas[side]
        for direction, step in enumerate(self.layout.shifts):
            ahead = own << step if step > 0 else own >> -step
            over = ahead & own
            landing = over << step if step > 0 else over >> -step
            for kind, bits in enumerate((landing & enemy, landing & empty, ahead & empty)):
                if bits and not history:
                    return True
                delta = deltas[kind][direction]
                while bits:
                    low = bits & -bits
                    if board ^ delta[low.bit_length() - 1] not in history:
                        return True
                    bits ^= low
        return False

    def crush_targets(self, own: int, enemy: int) -> int:
        """The enemy pieces that ``own`` could crush with one leap (repeats not considered)."""
        targets = 0
        for step in self.layout.shifts:
            ahead = own << step if step > 0 else own >> -step
            over = ahead & own
            targets |= over << step if step > 0 else over >> -step
        return targets & enemy
