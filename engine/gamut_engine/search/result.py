"""What a search is asked (:class:`Limits`) and what it answers (:class:`Result`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from gamut_engine.search.scores import describe_score

MoveT = TypeVar("MoveT")


LEAST_TIME = 0.001
"""Seconds a search whose time is already spent still gets: enough for the game's first
suggested move, never an error."""


@dataclass(frozen=True, slots=True)
class Limits:
    """When a search stops; any limit that is reached stops it. All ``None`` means no limit.

    A search never extends a line past ``depth``, so a search limited by depth alone
    returns exactly the depth-``depth`` minimax decision.
    """

    depth: int | None = None
    """Plies to look ahead: 1 looks at the side to move's own moves only."""
    time: float | None = None
    """Seconds of wall-clock time for the whole search."""
    nodes: int | None = None
    """Positions the search may generate, counting the root once per iteration."""

    def __post_init__(self) -> None:
        if self.depth is not None and self.depth < 1:
            raise ValueError(f"the search depth must be at least 1, not {self.depth}")
        if self.time is not None and not self.time > 0:
            raise ValueError(f"the time limit must be positive, not {self.time}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"the node limit must be at least 1, not {self.nodes}")

    def less(self, seconds: float) -> Limits:
        """These limits with ``seconds`` already spent of the time (at least
        :data:`LEAST_TIME` left, so the search still answers)."""
        if self.time is None or seconds <= 0:
            return self
        time = max(LEAST_TIME, self.time - seconds)
        return Limits(depth=self.depth, time=time, nodes=self.nodes)

    @property
    def unlimited(self) -> bool:
        """Whether no limit is set at all."""
        return self.depth is None and self.time is None and self.nodes is None

    def __str__(self) -> str:
        parts = [
            f"depth {self.depth}" if self.depth is not None else "",
            f"{self.time:g} s" if self.time is not None else "",
            f"{self.nodes:,} nodes" if self.nodes is not None else "",
        ]
        return ", ".join(part for part in parts if part) or "no limit"


NO_LIMITS = Limits()
"""No limit at all: a search that runs until the caller stops asking for results."""


@dataclass(frozen=True, slots=True)
class Stats:
    """Counts for one search, summed over all its iterations so far.

    Max nodes are those where the root's side is to move (even plies), min nodes the
    others: the MAX-VALUE and MIN-VALUE functions of textbook alpha-beta.
    """

    depth: int
    """Deepest iteration finished (or, for a partial result, begun)."""
    max_depth: int
    """Deepest ply any generated node lies at; the root is level 0."""
    nodes: int
    """Positions generated, the root included."""
    evals_max: int
    """Calls to the evaluation function at max nodes."""
    evals_min: int
    """Calls to the evaluation function at min nodes."""
    cutoffs_max: int
    """Prunings at max nodes (a move scored at least beta)."""
    cutoffs_min: int
    """Prunings at min nodes."""
    tt_hits: int
    """Probes that found the position in the transposition table."""
    tt_cutoffs: int
    """Of those, the ones whose stored score settled the node without searching it."""
    elapsed: float
    """Seconds since the search began."""

    @property
    def nodes_per_second(self) -> float:
        """Search speed; 0 when no time could be measured."""
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0

    def format(self) -> str:
        """The statistics as labelled lines, one figure a line."""
        rows = [
            ("Maximum depth reached (root = 0)", f"{self.max_depth:,}"),
            ("Nodes generated (with the root)", f"{self.nodes:,}"),
            ("Evaluations in MAX nodes", f"{self.evals_max:,}"),
            ("Evaluations in MIN nodes", f"{self.evals_min:,}"),
            ("Cutoffs in MAX nodes", f"{self.cutoffs_max:,}"),
            ("Cutoffs in MIN nodes", f"{self.cutoffs_min:,}"),
            ("Transposition table hits", f"{self.tt_hits:,} ({self.tt_cutoffs:,} cutoffs)"),
            ("Elapsed time", f"{self.elapsed:.3f} s ({self.nodes_per_second:,.0f} nodes/s)"),
        ]
        width = max(len(label) for label, _ in rows)
        return "\n".join(f"{label:<{width}}  {value}" for label, value in rows)

    def summary(self) -> str:
        """The main figures on one line, for logs."""
        return (
            f"depth {self.depth} (max {self.max_depth}), {self.nodes:,} nodes, "
            f"evals {self.evals_max:,}/{self.evals_min:,}, "
            f"cutoffs {self.cutoffs_max:,}/{self.cutoffs_min:,}, "
            f"tt hits {self.tt_hits:,}, {self.elapsed:.2f} s"
        )

    def __str__(self) -> str:
        return self.format()


@dataclass(frozen=True, slots=True)
class Result(Generic[MoveT]):
    """A search's answer after one iteration: always a legal move to play."""

    move: MoveT
    """The move to play."""
    score: int
    """Its value for the side to move (see :mod:`gamut_engine.search.scores`)."""
    pv: tuple[MoveT, ...]
    """The principal variation, starting with :attr:`move`; may stop short of :attr:`depth`."""
    depth: int
    """Plies of the iteration this result comes from; 0 if not even depth 1 finished."""
    complete: bool
    """False for an iteration cut short by a limit, whose best move so far is still safe."""
    stats: Stats
    """What the search did to get here."""

    @property
    def score_text(self) -> str:
        """The score for people: ``win in 3``, ``+120``…"""
        return describe_score(self.score)

    def format(self, format_move: Callable[[MoveT], str] = repr) -> str:
        """The move, score, depth and principal variation, then the statistics."""
        done = "" if self.complete else " (cut short)"
        pv = " ".join(format_move(move) for move in self.pv)
        return (
            f"Move {format_move(self.move)}, score {self.score_text}, depth {self.depth}{done}\n"
            f"Principal variation: {pv}\n{self.stats.format()}"
        )

    def __str__(self) -> str:
        return self.format()
