"""Crusher's static evaluation: what a position is worth to the side to move.

Terms, largest first:

- **material**: pieces against pieces, by far the biggest term, since the game is won by
  crushing ``n`` of them;
- **crushes**: an enemy piece the side to move can crush now is nearly a piece won (and the
  game won when the enemy is down to ``n`` pieces); own pieces the enemy could crush if it
  were its turn are hanging, and only one can usually be saved;
- **mobility**: slides and leaps available to each side (pieces that cannot move are a
  liability, and a side with no move loses);
- **position**: pieces near the centre, and pieces advanced towards the enemy's side.

All of it is a dozen shifts and popcounts per direction on the bitboards, with no move list.
"""

from __future__ import annotations

from gamut_engine.games.crusher_board import Layout

PIECE = 1_000
"""Worth of one piece more than the opponent."""
WINNING_CRUSH = 100_000
"""The side to move can crush now and that crush wins the game."""
CRUSH_AVAILABLE = 800
"""The side to move can crush at least one piece now."""
EXTRA_TARGET = 60
"""Each further enemy piece the side to move could crush."""
HANGING = 180
"""Each own piece the opponent could crush on its next move."""
HANGING_AT_THE_EDGE = 2_000
"""Each own piece hanging when losing one more piece loses the game."""
MOBILITY = 10
"""Each slide or leap available, own minus the opponent's."""
CENTRE = 30
"""Each step of a piece towards the centre."""
ADVANCE = 3
"""Each row a piece has advanced from its own edge."""


class CrusherEvaluator:
    """The evaluation for one board size, with its position tables built once."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.planes = (self._planes(layout, 0), self._planes(layout, 1))
        """For White and Black, ``(weight, bitboard)`` planes of the placement weights."""

    @staticmethod
    def _planes(layout: Layout, side: int) -> tuple[tuple[int, int], ...]:
        """Each cell's placement weight split into binary planes.

        The weight of a set of pieces is then one popcount per plane, however many
        different weights the board has.
        """
        radius = layout.n - 1
        planes: dict[int, int] = {}
        for (x, y), bit in zip(layout.axial, layout.bits, strict=True):
            from_rim = radius - max(abs(x), abs(y), abs(x + y))
            advanced = y + radius if side == 0 else radius - y
            weight = CENTRE * from_rim + ADVANCE * advanced
            for power in range(weight.bit_length()):
                if weight >> power & 1:
                    planes[1 << power] = planes.get(1 << power, 0) | bit
        return tuple(sorted(planes.items()))

    def evaluate(self, board: int, side: int) -> int:
        """Worth of the position to ``side``, the side to move (positive is good for it)."""
        layout = self.layout
        white = board & layout.mask
        black = board >> layout.half
        own, enemy = (white, black) if side == 0 else (black, white)
        empty = layout.mask & ~(own | enemy)
        own_count = own.bit_count()
        enemy_count = enemy.bit_count()
        own_moves, own_targets = self._reach(own, enemy, empty)
        enemy_moves, enemy_targets = self._reach(enemy, own, empty)
        score = PIECE * (own_count - enemy_count)
        score += self._crushes(own_targets, enemy_count)
        score -= self._hanging(enemy_targets, own_count)
        score += MOBILITY * (own_moves - enemy_moves)
        score += self.placement(own, side) - self.placement(enemy, 1 - side)
        return score

    def _reach(self, own: int, enemy: int, empty: int) -> tuple[int, int]:
        """Slides and leaps ``own`` could make, and the enemy pieces it could crush."""
        moves = 0
        targets = 0
        for step in self.layout.shifts:
            ahead = own << step if step > 0 else own >> -step
            over = ahead & own
            landing = over << step if step > 0 else over >> -step
            moves += (ahead & empty).bit_count() + (landing & empty).bit_count()
            targets |= landing & enemy
        return moves, targets

    def _crushes(self, targets: int, enemy_count: int) -> int:
        if not targets:
            return 0
        if enemy_count <= self.layout.n:
            return WINNING_CRUSH
        return CRUSH_AVAILABLE + EXTRA_TARGET * (targets.bit_count() - 1)

    def _hanging(self, targets: int, own_count: int) -> int:
        if not targets:
            return 0
        per_piece = HANGING_AT_THE_EDGE if own_count <= self.layout.n else HANGING
        return per_piece * targets.bit_count()

    def placement(self, pieces: int, side: int) -> int:
        """Centre and advancement worth of ``side``'s ``pieces``."""
        return sum(weight * (pieces & cells).bit_count() for weight, cells in self.planes[side])
