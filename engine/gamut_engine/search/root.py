"""The root of a node search: each root move searched in turn, the best kept as it goes.

The first move gets the full window; the others a null window around the best score
so far, and a full re-search only when they beat it. With noise (the weaker levels),
every root move is valued exactly and chosen by its value plus a pseudo-random shift.
The search below each move is :meth:`~gamut_engine.search.nodes.NodeSearch.negamax`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic

from gamut_engine.core import MoveT, StateT
from gamut_engine.search.nodes import NodeSearch
from gamut_engine.search.scores import EVAL_LIMIT, INFINITY, is_decisive

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


@dataclass(slots=True)
class RootProgress(Generic[MoveT]):
    """How far the current iteration got at the root: its best move so far."""

    move: MoveT | None = None
    score: int = 0
    pv: tuple[MoveT, ...] = ()
    searched: int = 0
    """Root moves fully searched; the first is always the previous iteration's best."""


def search_root(
    nodes: NodeSearch[StateT, MoveT],
    state: StateT,
    depth: int,
    moves: list[MoveT],
    progress: RootProgress[MoveT],
) -> None:
    """Search ``moves`` of the root ``depth`` plies deep, recording progress as it goes.

    The first move gets the full window; the others a null window around the best
    score so far, and a full re-search only when they beat it.
    """
    nodes.prepare(depth)
    nodes.counters.nodes += 1
    if nodes.noise:
        _search_root_noisy(nodes, state, depth, moves, progress)
        return
    negamax = nodes.negamax
    tracing = nodes.tracer is not None
    alpha = -INFINITY
    child_depth = depth - 1
    for index, move in enumerate(moves):
        child = nodes.play(state, move)
        if tracing:
            nodes.path.append(move)
        if index == 0:
            value = -negamax(child, child_depth, 1, -INFINITY, INFINITY)
        else:
            value = -negamax(child, child_depth, 1, -alpha - 1, -alpha)
            if value > alpha:
                value = -negamax(child, child_depth, 1, -INFINITY, -alpha)
        if tracing:
            nodes.path.pop()
        if index == 0 or value > alpha:
            alpha = value
            progress.move, progress.score = move, value
            progress.pv = (move, *nodes.pvs[1])
        progress.searched = index + 1


def _search_root_noisy(
    nodes: NodeSearch[StateT, MoveT],
    state: StateT,
    depth: int,
    moves: list[MoveT],
    progress: RootProgress[MoveT],
) -> None:
    """Value every root move exactly, then choose by value plus the move's noise.

    Noise shifts a move's value by a pseudo-random amount fixed for the search
    (never a win's or a loss's), so the choice errs among moves of similar worth.
    """
    tracing = nodes.tracer is not None
    best = -INFINITY
    for index, move in enumerate(moves):
        child = nodes.play(state, move)
        if tracing:
            nodes.path.append(move)
        value = -nodes.negamax(child, depth - 1, 1, -INFINITY, INFINITY)
        if tracing:
            nodes.path.pop()
        noisy = value if is_decisive(value) else _noisy(nodes, value, nodes.key(child))
        if index == 0 or noisy > best:
            best = noisy
            progress.move, progress.score = move, value
            progress.pv = (move, *nodes.pvs[1])
        progress.searched = index + 1


def _noisy(nodes: NodeSearch[StateT, MoveT], value: int, key: int) -> int:
    """``value`` shifted by the noise of the position ``key``, kept clear of win scores."""
    mixed = ((key ^ nodes.salt) * _GOLDEN) & _MASK64
    value += (mixed >> 20) % (2 * nodes.noise + 1) - nodes.noise
    return max(-EVAL_LIMIT, min(EVAL_LIMIT, value))
