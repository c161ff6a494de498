"""Standings and crosstables: a pool's players ranked, and who scored what against whom.

Rows are ranked by the conservative rating (``mu - 3·sigma``, see
:mod:`gamut_server.ladder.ratings`), then by games played and name. A crosstable counts,
for each ordered pair of players, the first one's wins, draws and losses against the
second.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from gamut_server.ladder.ratings import Skill


@dataclass(frozen=True, slots=True)
class Record:
    """Wins, draws and losses."""

    wins: int = 0
    """Games won."""
    draws: int = 0
    """Games drawn."""
    losses: int = 0
    """Games lost."""

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    def add(self, score: float) -> Record:
        """This record after one more game scoring ``score`` (1, ½ or 0)."""
        if score == 1.0:
            return Record(self.wins + 1, self.draws, self.losses)
        if score == 0.0:
            return Record(self.wins, self.draws, self.losses + 1)
        return Record(self.wins, self.draws + 1, self.losses)

    def as_json(self) -> dict[str, int]:
        """The record as JSON."""
        return {"games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses}


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    """One player's standing in a pool, as stored."""

    name: str
    """The player."""
    kind: str
    """``bot``, ``human`` or ``ai`` (an anchor)."""
    skill: Skill
    """The rating and its uncertainty."""
    record: Record = Record()
    """Rated games won, drawn and lost in the pool."""
    last_seen: datetime | None = None
    """When the player last played, or was last connected, in the pool."""


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings."""

    rank: int
    """1 for the top."""
    player: RatedPlayer
    """The player and its numbers."""

    def as_json(self) -> dict[str, Any]:
        """The line as JSON."""
        player, skill = self.player, self.player.skill
        return {
            "rank": self.rank,
            "name": player.name,
            "kind": player.kind,
            "rating": skill.rating,
            "uncertainty": skill.deviation,
            "ordinal": round(skill.ordinal),
            "mu": round(skill.mu, 2),
            "sigma": round(skill.sigma, 2),
            **player.record.as_json(),
            "last_seen": None if player.last_seen is None else player.last_seen.isoformat(),
        }


def standings(players: Iterable[RatedPlayer]) -> list[StandingRow]:
    """The players ranked: conservative rating, then games played, then name."""
    ordered = sorted(players, key=lambda p: (-p.skill.ordinal, -p.record.games, p.name))
    return [StandingRow(rank, player) for rank, player in enumerate(ordered, start=1)]


@dataclass(frozen=True, slots=True)
class GameScore:
    """One rated game's two players and its winner."""

    sides: tuple[str, str]
    """Side 0 and side 1."""
    winner: int | None
    """0, 1, or ``None`` for a draw."""


@dataclass(frozen=True)
class Crosstable:
    """Each pair's results, for the players in standings order."""

    names: tuple[str, ...]
    """The players, in the order of the rows and columns."""
    cells: dict[tuple[str, str], Record] = field(default_factory=dict)
    """``(row, column)``: the row player's record against the column player."""

    def cell(self, row: str, column: str) -> Record:
        """The row player's record against the column player (empty if they never met)."""
        return self.cells.get((row, column), Record())

    def as_json(self) -> dict[str, Any]:
        """The table as JSON: ``names`` and, per row, a record per column (``null`` on the
        diagonal and where the pair never met)."""
        rows = []
        for row in self.names:
            line = [
                None if (row, col) not in self.cells else self.cells[(row, col)].as_json()
                for col in self.names
            ]
            rows.append({"name": row, "results": line})
        return {"names": list(self.names), "rows": rows}


def crosstable(order: Sequence[str], games: Iterable[GameScore]) -> Crosstable:
    """The crosstable of ``games``; players not in ``order`` are appended by name."""
    cells: dict[tuple[str, str], Record] = {}
    seen: set[str] = set()
    for game in games:
        first, second = game.sides
        seen.update(game.sides)
        score = 0.5 if game.winner is None else (1.0 if game.winner == 0 else 0.0)
        cells[(first, second)] = cells.get((first, second), Record()).add(score)
        cells[(second, first)] = cells.get((second, first), Record()).add(1.0 - score)
    names = tuple(order) + tuple(sorted(seen - set(order)))
    return Crosstable(names, cells)
