"""Score scale shared by the search, its results and the reference minimax.

Scores are from the point of view of the side to move. A won game scores ``WIN``
minus the plies from the search root to the end, so a sooner win scores higher and a
later loss higher than a sooner one; a draw scores 0; heuristic evaluations stay
strictly between the largest loss and the smallest win.
"""

from __future__ import annotations

WIN = 1_000_000
"""Score of a win at the root itself; a win ``k`` plies away scores ``WIN - k``."""

INFINITY = WIN + 1
"""Larger than any score: the initial search window."""

MAX_PLY = 1_000
"""Deepest ply the search can reach; wins and losses further away are not told apart."""

WIN_BOUND = WIN - MAX_PLY
"""Scores above this are wins, below its negation losses."""

EVAL_LIMIT = WIN_BOUND - 1
"""Heuristic evaluations are clamped to ``[-EVAL_LIMIT, EVAL_LIMIT]``."""


def terminal_score(winner: int | None, side: int, ply: int) -> int:
    """Score of a finished game for ``side`` (to move there), ``ply`` plies below the root."""
    if winner is None:
        return 0
    return WIN - ply if winner == side else ply - WIN


def clamp_evaluation(value: int) -> int:
    """A game's evaluation, kept clear of the win and loss scores."""
    return max(-EVAL_LIMIT, min(EVAL_LIMIT, value))


def is_decisive(score: int) -> bool:
    """Whether ``score`` is a proven win or loss rather than a heuristic guess."""
    return abs(score) > WIN_BOUND


def describe_score(score: int) -> str:
    """The score for people: ``win in 3``, ``loss in 4``, ``+120``, ``-35`` or ``0``."""
    if score > WIN_BOUND:
        return f"win in {WIN - score}"
    if score < -WIN_BOUND:
        return f"loss in {WIN + score}"
    return f"{score:+d}" if score else "0"
