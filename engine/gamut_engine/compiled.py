"""What a game's compiled node search answers, for :meth:`gamut_engine.core.Game.compiled_search`.

Kept apart from the game interface and the search, which both name it, so that neither
imports the other through it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

MoveT = TypeVar("MoveT")
"""A game's move type."""

SearchedT = TypeVar("SearchedT", contravariant=True)
"""The positions a compiled search reads (it only ever reads them)."""


@dataclass(frozen=True, slots=True)
class RootReport(Generic[MoveT]):
    """What one compiled search of the root to one depth found."""

    complete: bool
    """Whether every root move was searched; if not, a limit stopped it."""
    searched: int
    """Root moves fully searched, the first being the one searched first."""
    move: MoveT
    """The best move among those searched (meaningless when none was)."""
    score: int
    """Its value for the side to move."""
    pv: tuple[MoveT, ...]
    """Its principal variation."""
    counts: tuple[int, ...]
    """Nodes, evaluations at max and min nodes, cutoffs at max and min nodes, table hits,
    table cutoffs and the deepest ply, as :class:`Counters` keeps them."""


class CompiledSearch(Protocol[SearchedT, MoveT]):
    """A game's compiled alpha-beta below the root, with its own table."""

    def search_root(
        self,
        state: SearchedT,
        depth: int,
        moves: list[MoveT],
        *,
        exact: bool,
        seconds: float,
        nodes: int,
        new_run: bool,
    ) -> RootReport[MoveT]:
        """Search ``moves`` in their order ``depth`` plies deep, within ``seconds`` and
        ``nodes`` (0: no limit); ``new_run`` starts the heuristics afresh."""
        ...

    def clear(self) -> None:
        """Forget every position searched so far."""
        ...
