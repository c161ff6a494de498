"""What a match counts for each player: moves, thinking time, search depth and nodes."""

from __future__ import annotations

from dataclasses import dataclass

from gamut_engine.players import Player, last_stats
from gamut_engine.search.result import Result, Stats


@dataclass(frozen=True, slots=True)
class Tally:
    """One player's figures over some moves; searches are the moves that reported figures."""

    moves: int = 0
    """Moves chosen."""
    seconds: float = 0.0
    """Wall-clock seconds spent choosing them."""
    searches: int = 0
    """Moves for which the player reported a search."""
    depth: int = 0
    """Sum of the depths those searches completed."""
    nodes: int = 0
    """Sum of the nodes those searches generated."""

    def add(self, seconds: float, depth: int | None, nodes: int | None) -> Tally:
        """This tally with one more move; ``depth`` is ``None`` if the player did not search."""
        searched = depth is not None
        return Tally(
            self.moves + 1,
            self.seconds + seconds,
            self.searches + searched,
            self.depth + (depth or 0),
            self.nodes + (nodes or 0),
        )

    def merged(self, other: Tally) -> Tally:
        """The figures of both tallies together."""
        return Tally(
            self.moves + other.moves,
            self.seconds + other.seconds,
            self.searches + other.searches,
            self.depth + other.depth,
            self.nodes + other.nodes,
        )

    @property
    def mean_time(self) -> float | None:
        """Mean seconds a move, or ``None`` before any move."""
        return self.seconds / self.moves if self.moves else None

    @property
    def mean_depth(self) -> float | None:
        """Mean completed search depth a move, or ``None`` for a player that never searched."""
        return self.depth / self.searches if self.searches else None

    @property
    def nodes_per_second(self) -> float | None:
        """Search speed over all the moves, or ``None`` for a player that never searched."""
        if not self.searches or self.seconds <= 0:
            return None
        return self.nodes / self.seconds


def search_token(player: Player) -> object | None:
    """The object holding the player's last search figures, to tell a new search from an old."""
    result = getattr(player, "last_result", None)
    if isinstance(result, Result):
        return result
    return last_stats(player)


def search_figures(player: Player, before: object | None) -> tuple[int | None, int | None]:
    """Completed depth and nodes of the player's latest search, if it is newer than ``before``.

    A search cut short inside an iteration counts the iterations it completed.
    ``(None, None)`` for a player that reports no search or none since ``before``.
    """
    token = search_token(player)
    if token is None or token is before:
        return None, None
    if isinstance(token, Result):
        completed = token.depth if token.complete else max(0, token.depth - 1)
        return completed, token.stats.nodes
    assert isinstance(token, Stats)
    return token.depth, token.nodes
