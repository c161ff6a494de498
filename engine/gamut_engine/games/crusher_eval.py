"""Crusher's evaluation: placeholder while the rules settle."""

from __future__ import annotations

from gamut_engine.games.crusher_moves import MoveGenerator


def evaluate_position(generator: MoveGenerator, board: int, side: int) -> int:
    """Material for the side to move."""
    own, enemy, _ = generator.sides(board, side)
    return 1000 * (own.bit_count() - enemy.bit_count())
