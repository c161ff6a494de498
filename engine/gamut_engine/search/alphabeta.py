"""Negamax alpha-beta with iterative deepening, written once over the :class:`Game` interface.

One :class:`Searcher` per game holds the transposition table across searches. Its
:meth:`Searcher.iterate` is a generator that yields a :class:`Result` for every finished
depth, so the caller owns the clock and always holds a legal move; :meth:`Searcher.search`
runs that generator under :class:`Limits`.

Invariants of the search below:

- Scores are negamax scores: each node's value is for the side to move there, and the
  side to move alternates every ply (true of every Gamut game).
- The search never goes past the nominal depth (no extensions, no quiescence), and
  transposition entries only settle a node searched to the same depth, so a search
  limited by depth returns the plain depth-limited minimax value.
- Ordering (table move, killers, history) changes only the speed, never the value.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Generator, Iterator
from contextlib import closing
from typing import Any, Generic, TextIO

from gamut_engine.core import Game, MoveT, StateT
from gamut_engine.search.collection import collector_held
from gamut_engine.search.compiled import CompiledNodes
from gamut_engine.search.nodes import Clock, Counters, LimitReachedError, NodeSearch
from gamut_engine.search.result import NO_LIMITS, Limits, Result, Stats
from gamut_engine.search.root import RootProgress, search_root
from gamut_engine.search.scores import WIN, is_decisive
from gamut_engine.search.table import DEFAULT_TABLE_SIZE, Table, trim
from gamut_engine.search.trace import DEFAULT_TRACE_LINES, SearchTrace

MAX_SEARCH_DEPTH = 64
"""Deepest iteration a search without a depth limit starts."""

THREAT_SHARE = 0.6
"""Share of a timed search's time the game's threat solver may use before the deepening:
half of it to look for a win, the rest (and what the first half left) for defences. Only
Connect Five has a solver; there a proven win decides where a few more plies do not."""

REPLY_MARGIN = 0.02
"""Most seconds a timed search keeps back from its time to stop and answer: unwinding
the tree, building the result and the caller's reply all happen after the deadline."""

REPLY_SHARE = 0.1
"""Share of a short search's time kept back instead, below :data:`REPLY_MARGIN`."""


def reply_margin(seconds: float) -> float:
    """Seconds a search of ``seconds`` keeps back for its answer."""
    return min(REPLY_MARGIN, REPLY_SHARE * seconds)


class Searcher(Generic[StateT, MoveT]):
    """Searches positions of one game; keeps its transposition table from search to search."""

    def __init__(
        self,
        game: Game[StateT, MoveT],
        *,
        table_size: int = DEFAULT_TABLE_SIZE,
        noise: int = 0,
        seed: int | None = None,
        trace: TextIO | None = None,
        trace_lines: int = DEFAULT_TRACE_LINES,
        trace_positions: bool = False,
        clock: Clock = time.perf_counter,
    ) -> None:
        """Set up searches of ``game``.

        ``noise`` weakens play for the lower levels: every root move is then valued
        exactly (no pruning at the root) and chosen by its value plus a pseudo-random
        amount in ``[-noise, noise]``, never added to a win or a loss; the amounts are
        fixed for one search and differ from search to search, drawn from ``seed``.
        ``trace`` is a
        text stream that receives a bounded trace of every search (``trace_lines``
        lines at most per search; ``trace_positions`` names nodes by their text).
        ``clock`` is the monotonic clock a time limit is measured on, read at every node.
        """
        self.game = game
        self.table_size = table_size
        self.noise = noise
        self.rng = random.Random(seed)
        self.trace = trace
        self.trace_lines = trace_lines
        self.trace_positions = trace_positions
        self.clock = clock
        self.table: Table = {}
        self.evaluations: dict[int, int] = {}
        """The game's evaluation of horizon positions, by key, kept like the table."""

    def clear(self) -> None:
        """Forget every position searched so far."""
        self.table.clear()
        self.evaluations.clear()
        compiled = self.game.compiled_search()
        if compiled is not None:
            compiled.clear()

    def iterate(
        self, state: StateT, limits: Limits = NO_LIMITS
    ) -> Generator[Result[MoveT], None, None]:
        """Search deeper and deeper from ``state``, yielding the result of every depth.

        Stops after ``limits.depth``; at ``limits.time`` seconds or ``limits.nodes``
        nodes it stops inside an iteration and yields that iteration's best move so far
        only if it is safe (the previous best move, searched first, was finished), or
        the first move the game suggests if not even depth 1 finished. Without a depth
        limit it also stops once a win or loss is proven or nothing was left to
        evaluate, or at once when there is only one move to search. Raises
        ``ValueError`` for a finished game.
        """
        started = self.clock()
        if self.game.outcome(state) is not None:
            raise ValueError("the game is over: there is no move to search")
        if len(self.table) > self.table_size:
            trim(self.table, self.table_size)
        if len(self.evaluations) > self.table_size:
            self.evaluations.clear()
        tracer = self._tracer()
        run = _Run(self, state, limits, tracer, started)
        moves = list(self.game.search_moves(run.state))
        try:
            yield from run.iterations(moves)
        finally:
            if tracer is not None:
                tracer.close()

    def search(self, state: StateT, limits: Limits) -> Result[MoveT]:
        """The best move found from ``state`` within ``limits`` (at least one must be set).

        A timed search uses its whole time unless it ends sooner (depth reached, result
        proven): the iteration a limit interrupts still counts when it is safe.
        """
        if limits.unlimited:
            raise ValueError("a search needs a depth, time or node limit")
        with collector_held(), closing(self.iterate(state, limits)) as results:
            *_, latest = results
        return latest

    def _tracer(self) -> SearchTrace | None:
        if self.trace is None:
            return None
        return SearchTrace(
            self.game, self.trace, max_lines=self.trace_lines, positions=self.trace_positions
        )


class _Run(Generic[StateT, MoveT]):
    """One search: the deepening loop around the node search."""

    def __init__(
        self,
        searcher: Searcher[StateT, MoveT],
        state: StateT,
        limits: Limits,
        tracer: SearchTrace | None,
        started: float,
    ) -> None:
        self.game = searcher.game
        self.state = state
        self.limits = limits
        self.tracer = tracer
        self.clock = searcher.clock
        self.started = started
        self.noise = searcher.noise
        self.counters = Counters()
        self.nodes = self._node_search(searcher)
        if isinstance(self.nodes, NodeSearch):
            self.state = self.game.search_state(state)  # what the Python search walks

    def _node_search(
        self, searcher: Searcher[StateT, MoveT]
    ) -> NodeSearch[StateT, MoveT] | CompiledNodes[StateT, MoveT]:
        """The game's compiled node search where it has one and this search allows it.

        The compiled search reads the real clock itself and neither traces nor adds
        noise, so a search with a trace, noise or another clock runs in Python.
        """
        game, limits = searcher.game, self.limits
        deadline = None if limits.time is None else self._deadline(limits.time)
        compiled = game.compiled_search()
        plain = self.tracer is None and not searcher.noise and self.clock is time.perf_counter
        if compiled is not None and plain:
            return CompiledNodes(
                compiled,
                counters=self.counters,
                exact=limits.depth is not None,
                clock=self.clock,
                deadline=deadline,
                node_limit=limits.nodes,
            )
        return NodeSearch(
            game,
            root_side=game.to_move(self.state),
            table=searcher.table,
            evaluations=searcher.evaluations,
            table_size=searcher.table_size,
            history=defaultdict(int),
            counters=self.counters,
            exact=limits.depth is not None,
            clock=self.clock,
            deadline=deadline,
            node_limit=limits.nodes,
            noise=searcher.noise,
            salt=searcher.rng.getrandbits(64),
            tracer=self.tracer,
        )

    def _deadline(self, seconds: float) -> float:
        """When the node search stops: ``seconds`` after the start, less the reply's margin."""
        return self.started + seconds - reply_margin(seconds)

    def iterations(self, moves: list[MoveT]) -> Iterator[Result[MoveT]]:
        """Yield one result per finished depth, then a safe partial one if a limit hits.

        A timed search without a depth cap first asks the game's threat solver: a
        proven win is played at once, and a threatened one narrows the root's moves.
        """
        if self._uses_threats():
            win = self._threat_phase(moves)
            if win is not None:
                yield win
                return
        last: Result[MoveT] | None = None
        depth = 0
        while self._may_deepen(depth, last):
            depth += 1
            progress = RootProgress[MoveT]()
            evaluations = self.counters.evaluations()
            table_cutoffs = self.counters.tt_cutoffs
            try:
                self.nodes.check_limits()
                if self.tracer is not None:
                    self.tracer.iteration(depth, self.state, len(moves))
                if isinstance(self.nodes, CompiledNodes):
                    self.nodes.search_root(self.state, depth, moves, progress)
                else:
                    search_root(self.nodes, self.state, depth, moves, progress)
            except LimitReachedError:
                partial = self._partial(depth, progress, last, moves)
                if partial is not None:
                    yield partial
                return
            last = self._result(depth, progress, complete=True)
            yield last
            moves.remove(last.move)
            moves.insert(0, last.move)
            if self.limits.depth is None and len(moves) == 1:
                return
            solved = self.counters.evaluations() == evaluations
            if solved and self.counters.tt_cutoffs == table_cutoffs and self.limits.depth is None:
                return

    def _uses_threats(self) -> bool:
        """Whether this search asks the game's threat solver first (timed, clean levels)."""
        return self.limits.depth is None and self.limits.time is not None and not self.noise

    def _threat_phase(self, moves: list[MoveT]) -> Result[MoveT] | None:
        """The game's proven win, if any; otherwise ``moves`` narrowed to the defences."""
        assert self.limits.time is not None
        share = self.limits.time * THREAT_SHARE
        found = self.game.forced_win(self.state, (self.clock, self.started + share / 2))
        if found is not None:
            move, plies = found
            return Result(move, WIN - plies, (move,), plies, True, self._stats(0))
        defences = self.game.defences(self.state, moves, (self.clock, self.started + share))
        if defences is not moves:
            moves[:] = defences
        return None

    def _may_deepen(self, depth: int, last: Result[MoveT] | None) -> bool:
        """Whether another iteration should start after ``depth`` finished with ``last``."""
        if self.limits.depth is not None:
            return depth < self.limits.depth
        if last is not None and is_decisive(last.score):
            return False
        return depth < MAX_SEARCH_DEPTH

    def _partial(
        self,
        depth: int,
        progress: RootProgress[MoveT],
        last: Result[MoveT] | None,
        moves: list[MoveT],
    ) -> Result[MoveT] | None:
        """The answer when a limit cut iteration ``depth`` short, if not already given."""
        if progress.searched:
            return self._result(depth, progress, complete=False)
        if last is not None:
            return None
        return Result(moves[0], 0, (moves[0],), 0, False, self._stats(0))

    def _result(self, depth: int, progress: RootProgress[MoveT], complete: bool) -> Result[MoveT]:
        assert progress.move is not None
        if self.tracer is not None:
            self.tracer.best(depth, progress.move, progress.score)
        stats = self._stats(depth)
        return Result(progress.move, progress.score, progress.pv, depth, complete, stats)

    def _stats(self, depth: int) -> Stats:
        counters = self.counters
        return Stats(
            depth=depth,
            max_depth=counters.max_ply,
            nodes=counters.nodes,
            evals_max=counters.evals[0],
            evals_min=counters.evals[1],
            cutoffs_max=counters.cutoffs[0],
            cutoffs_min=counters.cutoffs[1],
            tt_hits=counters.tt_hits,
            tt_cutoffs=counters.tt_cutoffs,
            elapsed=self.clock() - self.started,
        )


def search(game: Game[Any, Any], state: Any, limits: Limits, **options: Any) -> Result[Any]:
    """Search ``state`` of ``game`` once with a fresh :class:`Searcher` (``options`` for it)."""
    return Searcher(game, **options).search(state, limits)


def iterate(
    game: Game[Any, Any], state: Any, limits: Limits = NO_LIMITS, **options: Any
) -> Iterator[Result[Any]]:
    """Deepening results from a fresh :class:`Searcher` (``options`` for it), one per depth."""
    return Searcher(game, **options).iterate(state, limits)
