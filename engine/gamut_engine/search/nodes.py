"""The node search: fail-soft negamax alpha-beta with principal variation search.

This is the hot loop of the engine: it runs for every position searched, so it binds
what it uses to locals, allocates as little as it can and counts in place. The root's
moves are searched in :mod:`gamut_engine.search.root`, one :meth:`NodeSearch.negamax`
call each.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic

from gamut_engine.core import Game, MoveT, StateT
from gamut_engine.search.scores import EVAL_LIMIT, INFINITY, WIN, WIN_BOUND
from gamut_engine.search.table import (
    EXACT,
    LOWER,
    UPPER,
    Table,
    from_table,
    to_table,
    trim,
)
from gamut_engine.search.trace import SearchTrace

CHECK_INTERVAL = 256
"""Nodes between two looks at the node limit and the table's size (the clock: every node)."""

REDUCTION_DEPTH = 3
"""Shallowest remaining depth at which late moves are searched one ply less."""

REDUCTION_START = 3
"""Moves of a node searched at full depth before the late ones are reduced."""

DEEP_REDUCTION_DEPTH = 4
"""Shallowest remaining depth at which the latest moves are searched two plies less."""

DEEP_REDUCTION_START = 6
"""Moves of a node searched at most one ply less before the latest are reduced by two."""

TRIM_RESERVE = 0.5
"""Seconds that must remain before the deadline for the tables to be trimmed mid-search.

Trimming a full table takes some 70 ms of CPU, several times that on a loaded machine,
so near the deadline it waits for the next search, which trims first."""

Clock = Callable[[], float]
"""A monotonic clock in seconds, such as :func:`time.perf_counter`."""


class LimitReachedError(Exception):
    """A time or node limit was reached in the middle of an iteration."""


@dataclass(slots=True)
class Counters:
    """Running totals of one search; lists are indexed by ply parity (0 = max nodes)."""

    nodes: int = 0
    max_ply: int = 0
    evals: list[int] = field(default_factory=lambda: [0, 0])
    cutoffs: list[int] = field(default_factory=lambda: [0, 0])
    tt_hits: int = 0
    tt_cutoffs: int = 0

    def evaluations(self) -> int:
        """Evaluation calls at max and min nodes together."""
        return self.evals[0] + self.evals[1]


class NodeSearch(Generic[StateT, MoveT]):
    """Searches the tree below a root for one search; the state of its heuristics."""

    def __init__(
        self,
        game: Game[StateT, MoveT],
        *,
        root_side: int,
        table: Table,
        evaluations: dict[int, int],
        table_size: int,
        history: defaultdict[MoveT, int],
        counters: Counters,
        exact: bool,
        clock: Clock,
        deadline: float | None,
        node_limit: int | None,
        noise: int,
        salt: int,
        tracer: SearchTrace | None,
    ) -> None:
        """Prepare to search ``game``; see :class:`Searcher` for the meaning of the options.

        ``exact`` lets only same-depth table entries settle a node, so results equal
        plain depth-limited minimax; otherwise deeper entries are trusted too, late
        moves are reduced and forced replies extended (see :meth:`_expand`). ``clock``
        is read at every node against ``deadline``, so a search stops within one node's
        work of it however slow the game's evaluation is.
        """
        self.play = game.play
        self.outcome = game.outcome
        self.evaluate = game.evaluate
        self.key = game.key
        self.search_moves = game.search_moves
        self.root_side = root_side
        self.table = table
        self.evaluations = evaluations
        self.table_size = table_size
        self.history = history
        self.counters = counters
        self.exact = exact
        self.clock = clock
        self.deadline = math.inf if deadline is None else deadline
        self.node_limit = node_limit
        self.noise = noise
        self.salt = salt
        self.tracer = tracer
        self.extension_limit = 0
        """Plies below the root where forced replies may still be extended."""
        self.next_check = CHECK_INTERVAL if node_limit is None else min(CHECK_INTERVAL, node_limit)
        self.pvs: list[tuple[MoveT, ...]] = []
        self.killers: list[list[MoveT | None]] = []
        self.path: list[MoveT] = []
        """Moves from the root to the current node, kept only while tracing."""

    def check_limits(self) -> None:
        """Raise :class:`LimitReachedError` at a limit; keep the table within its size."""
        nodes = self.counters.nodes
        if self.node_limit is not None and nodes >= self.node_limit:
            raise LimitReachedError
        now = self.clock()
        if now >= self.deadline:
            raise LimitReachedError
        if self.deadline - now > TRIM_RESERVE:
            if len(self.table) > self.table_size:
                trim(self.table, self.table_size)
            if len(self.evaluations) > self.table_size:
                self.evaluations.clear()
        self.next_check = nodes + CHECK_INTERVAL
        if self.node_limit is not None:
            self.next_check = min(self.next_check, self.node_limit)

    def negamax(self, state: StateT, depth: int, ply: int, alpha: int, beta: int) -> int:
        """Value of ``state`` for its side to move, ``depth`` plies deep, ``ply`` below the root.

        Fail-soft: a value at most ``alpha`` is an upper bound, at least ``beta`` a lower
        bound, anything between exact.
        """
        counters = self.counters
        counters.nodes += 1
        if counters.nodes >= self.next_check:
            self.check_limits()
        elif self.clock() >= self.deadline:
            raise LimitReachedError
        if ply > counters.max_ply:
            counters.max_ply = ply
        self.pvs[ply] = ()
        result = self.outcome(state)
        if result is not None:
            return self._terminal(result.winner, ply)
        if depth <= 0:
            return self._leaf(state, ply)
        # Mate-distance pruning: a running game ends at the next ply at the soonest, so no
        # value here beats a win or loss there; the root value cannot change.
        if alpha >= WIN - ply - 1:
            return WIN - ply - 1
        if beta <= ply + 1 - WIN:
            return ply + 1 - WIN
        key = self.key(state)
        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            counters.tt_hits += 1
            stored_depth, flag, value, tt_move = entry
            if stored_depth == depth or (stored_depth > depth and not self.exact):
                value = from_table(value, ply)
                if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                    counters.tt_cutoffs += 1
                    if self.tracer is not None:
                        self.tracer.leaf(ply, self.path, value, "table")
                    return value
        moves = self.search_moves(state)
        if not moves:
            return self._leaf(state, ply)
        if len(moves) == 1 and not self.exact and ply < self.extension_limit:
            # A forced reply (a block of an immediate win) costs one move, not a ply: the
            # threat behind it is followed further, like a check in chess.
            depth += 1
        ordered = self._order(moves, tt_move, ply)
        reduce = not self.exact and depth >= REDUCTION_DEPTH
        value = self._expand(state, key, depth, ply, alpha, beta, ordered, reduce)
        if reduce and value < -WIN_BOUND:
            # Every move lost, some of them seen a ply short: look again at full depth.
            value = self._expand(state, key, depth, ply, alpha, beta, ordered, False)
        return value

    def _expand(
        self,
        state: StateT,
        key: int,
        depth: int,
        ply: int,
        alpha: int,
        beta: int,
        moves: list[MoveT],
        reduce: bool,
    ) -> int:
        """Search the children of an inner node and store what was learned.

        With ``reduce``, moves after the first :data:`REDUCTION_START` (the table's,
        the killers', the best by history) get a null window one ply shallower first
        (two plies from the :data:`DEEP_REDUCTION_START`-th on, at
        :data:`DEEP_REDUCTION_DEPTH` plies or more to go), and their full-depth search
        only if that beats ``alpha``.
        """
        tracer = self.tracer
        if tracer is not None:
            tracer.enter(ply, self.path, state, alpha, beta)
        play, negamax, path, pvs = self.play, self.negamax, self.path, self.pvs
        original_alpha = alpha
        best = -INFINITY
        best_move = None
        child_ply = ply + 1
        child_depth = depth - 1
        late = REDUCTION_START if reduce else len(moves)
        later = DEEP_REDUCTION_START if reduce and depth >= DEEP_REDUCTION_DEPTH else len(moves)
        for index, move in enumerate(moves):
            child = play(state, move)
            if tracer is not None:
                path.append(move)
            if not index:
                value = -negamax(child, child_depth, child_ply, -beta, -alpha)
            else:
                value = alpha + 1
                if index >= late:
                    shallower = child_depth - 2 if index >= later else child_depth - 1
                    value = -negamax(child, shallower, child_ply, -alpha - 1, -alpha)
                if value > alpha:
                    value = -negamax(child, child_depth, child_ply, -alpha - 1, -alpha)
                if alpha < value < beta:
                    value = -negamax(child, child_depth, child_ply, -beta, -alpha)
            if tracer is not None:
                path.pop()
            if value > best:
                best = value
                best_move = move
                if value > alpha:
                    alpha = value
                    pvs[ply] = (move, *pvs[child_ply])
                    if value >= beta:
                        self._cutoff(move, depth, ply)
                        break
        if best >= beta:
            flag = LOWER
        elif best > original_alpha:
            flag = EXACT
        else:
            flag, best_move = UPPER, moves[0]
        self.table[key] = (depth, flag, to_table(best, ply), best_move)
        if tracer is not None:
            tracer.leave(ply, path, best, flag == LOWER)
        return best

    def _order(self, moves: list[MoveT], tt_move: MoveT | None, ply: int) -> list[MoveT]:
        """The game's order, re-sorted by history, then the killers and the table move first.

        Always a new list: the game's own list is never changed.
        """
        if len(moves) < 2:
            return moves
        history = self.history
        moves = sorted(moves, key=history.__getitem__, reverse=True) if history else list(moves)
        killer = self.killers[ply]
        for first in (killer[1], killer[0], tt_move):
            if first is not None and moves[0] != first and first in moves:
                moves.remove(first)
                moves.insert(0, first)
        return moves

    def _cutoff(self, move: MoveT, depth: int, ply: int) -> None:
        """Remember a move that refuted the opponent's last move."""
        self.counters.cutoffs[ply & 1] += 1
        killer = self.killers[ply]
        if killer[0] != move:
            killer[1] = killer[0]
            killer[0] = move
        self.history[move] += depth * depth

    def _terminal(self, winner: int | None, ply: int) -> int:
        """Score of a finished game at ``ply``: sooner wins and later losses score higher."""
        if winner is None:
            value = 0
        elif winner == self.root_side ^ (ply & 1):
            value = WIN - ply
        else:
            value = ply - WIN
        if self.tracer is not None:
            self.tracer.leaf(ply, self.path, value, "end")
        return value

    def _leaf(self, state: StateT, ply: int) -> int:
        """The game's evaluation at the horizon, clamped clear of win scores.

        Remembered by key: re-searches, transpositions and the next move's search meet
        the same horizon positions again, and an evaluation costs far more than a lookup.
        """
        key = self.key(state)
        value = self.evaluations.get(key)
        if value is None:
            value = self.evaluate(state)
            if value > EVAL_LIMIT:
                value = EVAL_LIMIT
            elif value < -EVAL_LIMIT:
                value = -EVAL_LIMIT
            self.evaluations[key] = value
        self.counters.evals[ply & 1] += 1
        if self.tracer is not None:
            self.tracer.leaf(ply, self.path, value, "eval")
        return value

    def prepare(self, depth: int) -> None:
        """Size the per-ply tables for an iteration ``depth`` plies deep."""
        self.extension_limit = 2 * depth
        while len(self.pvs) < 3 * depth + 2:
            self.pvs.append(())
            self.killers.append([None, None])
        self.path.clear()
