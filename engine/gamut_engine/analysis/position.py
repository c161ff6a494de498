"""One position judged: its value for the side to move, the best move and its line.

The judgement is the AI's own timed search (threat solver first where the game has
one, then alpha-beta deepening) run on a :class:`~gamut_engine.analysis.budget.WorkClock`,
so it is the search a live game gets, bounded by work instead of seconds. A finished
position needs no search: its value is the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamut_engine.analysis.budget import Budget
from gamut_engine.registry import AnyGame
from gamut_engine.search.alphabeta import Searcher
from gamut_engine.search.collection import collector_held
from gamut_engine.search.result import Limits
from gamut_engine.search.scores import terminal_score
from gamut_engine.search.work import WorkClock


@dataclass(frozen=True, slots=True)
class Judgement:
    """What the search found in one position."""

    side: int
    """The side to move there."""
    score: int
    """The position's value for :attr:`side` (the search's scale: wins near ``WIN``)."""
    best: Any | None
    """The move the search would play; ``None`` in a finished position."""
    line: tuple[Any, ...]
    """The principal variation, starting with :attr:`best` (empty when finished)."""
    depth: int
    """Plies of the deepest iteration finished (a proven threat win: its length)."""
    work: int
    """Units of work the judgement took."""
    capped: bool
    """Whether the wall-clock cap, not the work, ended the search."""


def judge(searcher: Searcher[Any, Any], state: Any, budget: Budget) -> Judgement:
    """Judge ``state`` with ``searcher`` within ``budget``.

    The searcher's clock is replaced by a fresh work clock for the position; its
    transposition table is kept, so judging a game's positions one after the other
    reuses what the previous ones found.
    """
    game: AnyGame = searcher.game
    side = game.to_move(state)
    outcome = game.outcome(state)
    if outcome is not None:
        return Judgement(side, terminal_score(outcome.winner, side, 0), None, (), 0, 0, False)
    clock = WorkClock(budget.seconds)
    searcher.clock = clock
    searcher.noise = 0
    with collector_held():
        # The node limit too: a game's compiled search takes its time in seconds once per
        # depth and reads no clock, so only nodes bound it to the same work.
        result = searcher.search(state, Limits(time=float(budget.work), nodes=budget.work))
    return Judgement(
        side=side,
        score=result.score,
        best=result.move,
        line=result.pv,
        depth=result.depth,
        work=clock.readings,
        capped=clock.capped,
    )
