"""A tournament's standings from its games: points, record and the crosstable.

A round robin scores 1 for a win and ½ for a draw; an arena 2 for a win and 1 for a
draw (as lichess's arenas, without streaks), so a player's points reward playing often
as well as well. A forfeit (a game a withdrawn player did not play) counts as a win for
the other; an aborted game counts for nobody.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from gamut_server.records.tournaments import TournamentGame, TournamentKind

COUNTED = ("finished", "forfeit")
"""The statuses of games that count."""


@dataclass
class Standing:
    """One player's place."""

    name: str
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    against: dict[str, float] = field(default_factory=dict)
    """Points scored against each opponent."""

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses


def standings(
    kind: TournamentKind, players: Sequence[str], games: Iterable[TournamentGame]
) -> list[Standing]:
    """Every player's standing, best first (points, then wins, then the order given)."""
    win, draw = (2.0, 1.0) if kind == "arena" else (1.0, 0.5)
    table = {name: Standing(name) for name in players}
    for game in games:
        if game.status not in COUNTED:
            continue
        sides = (game.first, game.second)
        for side, name in enumerate(sides):
            line = table.setdefault(name, Standing(name))
            other = sides[1 - side]
            if game.winner is None:
                line.draws += 1
                gained = draw
            elif game.winner == side:
                line.wins += 1
                gained = win
            else:
                line.losses += 1
                gained = 0.0
            line.points += gained
            line.against[other] = line.against.get(other, 0.0) + gained
    order = {name: index for index, name in enumerate(players)}
    return sorted(
        table.values(), key=lambda line: (-line.points, -line.wins, order.get(line.name, 1 << 30))
    )
