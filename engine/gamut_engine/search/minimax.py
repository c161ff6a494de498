"""Plain minimax without pruning: the reference the alpha-beta search must agree with.

Exponential and slow, for tests and for checking small positions by hand. It scores
exactly as the search does (see :mod:`gamut_engine.search.scores`) over the same
:meth:`~gamut_engine.core.Game.search_moves`.
"""

from __future__ import annotations

from typing import Any

from gamut_engine.core import Game
from gamut_engine.search.scores import clamp_evaluation, terminal_score


def minimax(game: Game[Any, Any], state: Any, depth: int, ply: int = 0) -> int:
    """Negamax value of ``state`` for its side to move, ``depth`` plies deep.

    ``ply`` is the distance from the root, which wins and losses are scored by.
    """
    outcome = game.outcome(state)
    if outcome is not None:
        return terminal_score(outcome.winner, game.to_move(state), ply)
    moves = game.search_moves(state)
    if depth <= 0 or not moves:
        return clamp_evaluation(game.evaluate(state))
    return max(-minimax(game, game.play(state, move), depth - 1, ply + 1) for move in moves)


def minimax_values(game: Game[Any, Any], state: Any, depth: int) -> dict[Any, int]:
    """Each root move's minimax value for the side to move, looking ``depth`` plies deep."""
    if depth < 1:
        raise ValueError("minimax_values needs a depth of at least 1")
    state = game.search_state(state)
    return {
        move: -minimax(game, game.play(state, move), depth - 1, 1)
        for move in game.search_moves(state)
    }
