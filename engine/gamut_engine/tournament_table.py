"""A tournament's standings: each player's score, the crosstable and Elo differences.

Pure. Built from the games played so far (:class:`~gamut_engine.tournament.Outcome`), so
a tournament's table can be shown while it runs and after it is resumed. A player's
Elo difference is against the field it met: the logistic Elo of its mean score, with
the 95% Wilson interval of that score turned into Elo the same way
(:mod:`gamut_engine.match_score`); a meeting's is the same figure for one pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from gamut_engine.match_score import elo_difference, wilson_interval
from gamut_engine.tournament import Outcome

__all__ = ["EloEstimate", "PlayerLine", "Table", "build_table", "estimate"]


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference and its 95% interval, from a score over some games."""

    elo: float
    """The difference the score implies."""
    low: float
    """The lower end of the 95% interval."""
    high: float
    """The upper end."""

    def text(self) -> str:
        """``+35 (95% -20 to +90)``."""
        return f"{self.elo:+.0f} (95% {self.low:+.0f} to {self.high:+.0f})"


def estimate(wins: int, draws: int, losses: int) -> EloEstimate:
    """The Elo difference of a record of wins, draws and losses, and its 95% interval."""
    interval = wilson_interval(wins, draws, losses)
    score = (wins + draws / 2) / (wins + draws + losses)
    return EloEstimate(
        elo_difference(score), elo_difference(interval.low), elo_difference(interval.high)
    )


@dataclass
class PlayerLine:
    """One player's results so far."""

    player: int
    """The player, by index."""
    wins: int = 0
    """Games won."""
    draws: int = 0
    """Games drawn."""
    losses: int = 0
    """Games lost."""
    against: dict[int, list[float]] = field(default_factory=dict)
    """Points scored against each opponent, one entry a game."""

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """Points: 1 a win, ½ a draw."""
        return self.wins + self.draws / 2

    def elo(self) -> EloEstimate | None:
        """The Elo difference against the field met, or ``None`` before any game."""
        return estimate(self.wins, self.draws, self.losses) if self.games else None

    def meeting(self, opponent: int) -> EloEstimate | None:
        """The Elo difference against ``opponent``, or ``None`` if they have not played."""
        points = self.against.get(opponent, [])
        if not points:
            return None
        wins, losses = points.count(1.0), points.count(0.0)
        return estimate(wins, len(points) - wins - losses, losses)


@dataclass(frozen=True)
class Table:
    """The standings: players best first (points, then wins, then entry order)."""

    lines: tuple[PlayerLine, ...]
    """One line a player, in standing order."""
    reasons: dict[str, int]
    """How many games ended for each reason."""

    @property
    def games(self) -> int:
        """Games counted."""
        return sum(line.games for line in self.lines) // 2


def build_table(players: int, outcomes: Iterable[Outcome]) -> Table:
    """The standings of ``players`` players after ``outcomes``."""
    lines = [PlayerLine(index) for index in range(players)]
    reasons: dict[str, int] = {}
    for outcome in outcomes:
        pairing = outcome.pairing
        reasons[outcome.reason] = reasons.get(outcome.reason, 0) + 1
        for me, other in ((pairing.a, pairing.b), (pairing.b, pairing.a)):
            _count(lines[me], other, outcome.points(me))
    ordered = sorted(lines, key=lambda line: (-line.points, -line.wins, line.player))
    return Table(tuple(ordered), reasons)


def _count(line: PlayerLine, opponent: int, points: float) -> None:
    if points == 1.0:
        line.wins += 1
    elif points == 0.0:
        line.losses += 1
    else:
        line.draws += 1
    line.against.setdefault(opponent, []).append(points)


def crosstable_rows(table: Table, names: Sequence[str]) -> list[str]:
    """The crosstable as text: rank, name, points and games, then points against each
    player in standing order (``-`` where they have not met), then the Elo estimate."""
    order = [line.player for line in table.lines]
    width = max(len(name) for name in names)
    heads = "".join(f"{rank:>7}" for rank in range(1, len(order) + 1))
    rows = [f"{'#':>2} {'player':<{width}} {'points':>9}{heads}   Elo vs field"]
    for rank, line in enumerate(table.lines, 1):
        cells = "".join(f"{_cell(line, other):>7}" for other in order)
        elo = line.elo()
        score = f"{line.points:g}/{line.games}"
        rows.append(
            f"{rank:>2} {names[line.player]:<{width}} {score:>9}{cells}   "
            f"{elo.text() if elo else '-'}"
        )
    return rows


def _cell(line: PlayerLine, other: int) -> str:
    if other == line.player:
        return "x"
    points = line.against.get(other)
    return f"{sum(points):g}/{len(points)}" if points else "-"
