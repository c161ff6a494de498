"""Lines of Action evaluation and move ordering (placeholder until the rules are settled)."""

from __future__ import annotations

from gamut_engine.games.loa_board import LoaBoard, LoaMove


def evaluate(board: LoaBoard, black: int, white: int, side: int) -> int:
    """Heuristic worth of a position for ``side``."""
    return 0


def order_moves(board: LoaBoard, own: int, enemy: int, moves: list[LoaMove]) -> list[LoaMove]:
    """``moves``, most promising first."""
    return moves
