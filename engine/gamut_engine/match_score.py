"""Scoring a match: the score of a series of games and how far it can be trusted.

A player scores 1 for a win, ½ for a draw and 0 for a loss; its score is the mean over
the games. The 95% confidence interval is the Wilson score interval of that mean,
treating the ``N`` games as ``N`` trials with ``wins + draws / 2`` successes. Wilson
rather than the plain normal approximation because it stays inside [0, 1] and keeps a
useful width at the extremes: 100 wins out of 100 still gives [0.963, 1], where the
normal approximation would claim [1, 1]. Counting a draw as half a success slightly
overstates the spread when there are many draws, so the interval errs on the wide side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z_95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""

MAX_ELO = 800.0
"""Elo difference reported for a score of 0 or 1, where the logistic model has no answer."""


@dataclass(frozen=True, slots=True)
class Interval:
    """A range of scores, both ends between 0 and 1."""

    low: float
    """Lower end."""
    high: float
    """Upper end."""

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int | float) and self.low <= value <= self.high


def match_score(wins: int, draws: int, losses: int) -> float:
    """The mean points a game, a win 1 and a draw ½; ``ValueError`` without any game."""
    games = _games(wins, draws, losses)
    return (wins + draws / 2) / games


def wilson_interval(wins: int, draws: int, losses: int, z: float = Z_95) -> Interval:
    """The Wilson score interval of the match score (95% with the default ``z``)."""
    games = _games(wins, draws, losses)
    score = (wins + draws / 2) / games
    z2 = z * z
    centre = (score + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(score * (1 - score) / games + z2 / (4 * games**2))
    # At a score of exactly 0 or 1 the far end is 0 or 1; say so without rounding error.
    low = 0.0 if score == 0 else max(0.0, centre - half)
    high = 1.0 if score == 1 else min(1.0, centre + half)
    return Interval(low, high)


def elo_difference(score: float) -> float:
    """The rating difference a score implies under the logistic Elo model.

    Clamped to ±:data:`MAX_ELO` at scores of 0 and 1, where the model gives infinity.
    """
    if not 0 <= score <= 1:
        raise ValueError(f"a score lies between 0 and 1, not {score}")
    if score <= 0:
        return -MAX_ELO
    if score >= 1:
        return MAX_ELO
    difference = max(-MAX_ELO, min(MAX_ELO, -400 * math.log10(1 / score - 1)))
    return difference or 0.0  # an even score gives -0.0, which would print as "-0"


def _games(wins: int, draws: int, losses: int) -> int:
    """The number of games; ``ValueError`` for a negative count or none at all."""
    if min(wins, draws, losses) < 0:
        raise ValueError("game counts cannot be negative")
    games = wins + draws + losses
    if games == 0:
        raise ValueError("a score needs at least one game")
    return games
