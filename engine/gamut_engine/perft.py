"""Move-path counting, the standard check that move generation is exactly right."""

from __future__ import annotations

from typing import Any

from gamut_engine.core import Game


def perft(game: Game[Any, Any], state: Any, depth: int) -> int:
    """Leaves of the full game tree ``depth`` plies below ``state``.

    Every legal move is played; a game that ends before ``depth`` has no leaves below.
    """
    if depth == 0:
        return 1
    if game.outcome(state) is not None:
        return 0
    moves = game.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(game, game.play(state, move), depth - 1) for move in moves)
