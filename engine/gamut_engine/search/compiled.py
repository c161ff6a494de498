"""A game's compiled node search, run by the generic deepening loop one depth at a time.

A game may offer one (:meth:`gamut_engine.core.Game.compiled_search`): the same
alpha-beta as :class:`~gamut_engine.search.nodes.NodeSearch`, below a root whose moves
the Python loop still chooses, orders and judges (the threat phase, the safe partial
result, the limits). :class:`CompiledNodes` puts it behind NodeSearch's two methods.
"""

from __future__ import annotations

import math
from typing import Generic

from gamut_engine.compiled import CompiledSearch
from gamut_engine.core import MoveT, StateT
from gamut_engine.search.nodes import Clock, Counters, LimitReachedError
from gamut_engine.search.root import RootProgress


class CompiledNodes(Generic[StateT, MoveT]):
    """:class:`~gamut_engine.search.nodes.NodeSearch`'s interface over a compiled search."""

    def __init__(
        self,
        compiled: CompiledSearch[StateT, MoveT],
        *,
        counters: Counters,
        exact: bool,
        clock: Clock,
        deadline: float | None,
        node_limit: int | None,
    ) -> None:
        """Run ``compiled`` under the limits of one search, counting in ``counters``."""
        self.compiled, self.counters, self.exact, self.clock = compiled, counters, exact, clock
        self.deadline = math.inf if deadline is None else deadline
        self.node_limit = node_limit
        self.new_run = True
        """Whether the next depth starts the search: its heuristics begin afresh."""

    def check_limits(self) -> None:
        """Raise :class:`LimitReachedError` once a limit is reached."""
        if self.node_limit is not None and self.counters.nodes >= self.node_limit:
            raise LimitReachedError
        if self.clock() >= self.deadline:
            raise LimitReachedError

    def search_root(
        self, state: StateT, depth: int, moves: list[MoveT], progress: RootProgress[MoveT]
    ) -> None:
        """Search the root ``depth`` plies deep; raise at a limit, progress recorded."""
        nodes = 0 if self.node_limit is None else self.node_limit - self.counters.nodes
        report = self.compiled.search_root(
            state,
            depth,
            moves,
            exact=self.exact,
            seconds=self.deadline - self.clock(),
            nodes=nodes,
            new_run=self.new_run,
        )
        self.new_run = False
        self._count(report.counts)
        if report.searched:
            progress.move, progress.score, progress.pv = report.move, report.score, report.pv
            progress.searched = report.searched
        if not report.complete:
            raise LimitReachedError

    def _count(self, counts: tuple[int, ...]) -> None:
        """Add one call's counts to the search's."""
        c = self.counters
        nodes, evals_max, evals_min, cutoffs_max, cutoffs_min, hits, cutoffs, deepest = counts
        c.nodes += nodes
        c.evals[0] += evals_max
        c.evals[1] += evals_min
        c.cutoffs[0] += cutoffs_max
        c.cutoffs[1] += cutoffs_min
        c.tt_hits += hits
        c.tt_cutoffs += cutoffs
        c.max_ply = max(c.max_ply, deepest)
