"""Ratings with openskill: a skill and its uncertainty per player and pool.

Gamut rates with openskill's Thurstone-Mosteller model (full pairing), on an Elo-like
scale: a new player starts at 1500 ± 500 (``mu`` ± ``sigma``). Players are ranked by
the conservative *ordinal* ``mu - 3·sigma``, so a newcomer starts at 0 and climbs as
its results make the rating both higher and surer. A draw is a tie.

The hosted AI's anchors are rated like everyone until their uncertainty falls to
:attr:`RatingModel.anchor_settle_sigma`; from then on their rating is frozen, so the
scale stays tied to programs whose strength never changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from openskill.models import ThurstoneMostellerFull

INITIAL_MU: Final = 1500.0
"""A new player's rating."""

INITIAL_SIGMA: Final = 500.0
"""A new player's uncertainty."""


@dataclass(frozen=True, slots=True)
class Skill:
    """One player's rating in one pool: the estimate and its uncertainty."""

    mu: float = INITIAL_MU
    """The estimated strength."""
    sigma: float = INITIAL_SIGMA
    """The uncertainty of the estimate (one standard deviation)."""

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3·sigma``, by which standings rank."""
        return self.mu - 3 * self.sigma

    @property
    def rating(self) -> int:
        """The rating as shown: ``mu`` rounded."""
        return round(self.mu)

    @property
    def deviation(self) -> int:
        """The uncertainty as shown: ``sigma`` rounded."""
        return round(self.sigma)

    def band(self, width: float = 1.0) -> tuple[float, float]:
        """The interval ``mu ± width·sigma``."""
        return self.mu - width * self.sigma, self.mu + width * self.sigma


def score_of(winner: int | None, side: int) -> float:
    """What a game scores for ``side``: 1 for a win, ½ for a draw, 0 for a loss."""
    if winner is None:
        return 0.5
    return 1.0 if winner == side else 0.0


class RatingModel:
    """Rates two-player games; the same model for every pool."""

    def __init__(
        self,
        *,
        mu: float = INITIAL_MU,
        sigma: float = INITIAL_SIGMA,
        anchor_settle_sigma: float = 150.0,
    ) -> None:
        """A model on the scale ``mu`` ± ``sigma`` (beta = sigma/2, tau = sigma/100)."""
        self._model = ThurstoneMostellerFull(mu=mu, sigma=sigma, beta=sigma / 2, tau=sigma / 100)
        self.initial = Skill(mu, sigma)
        """A new player's skill."""
        self.anchor_settle_sigma = anchor_settle_sigma
        """An anchor whose uncertainty is this low or lower keeps its rating."""

    def rate(
        self,
        first: Skill,
        second: Skill,
        score: float,
        *,
        frozen: tuple[bool, bool] = (False, False),
    ) -> tuple[Skill, Skill]:
        """Both skills after a game that scored ``score`` (1, ½ or 0) for ``first``.

        A ``frozen`` side keeps its skill; the other is rated against it as usual.
        """
        if score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game scores 1, 0.5 or 0, not {score}")
        ranks = [0.0, 0.0] if score == 0.5 else ([0.0, 1.0] if score == 1.0 else [1.0, 0.0])
        teams = [[self._model.rating(mu=s.mu, sigma=s.sigma)] for s in (first, second)]
        [[new_first], [new_second]] = self._model.rate(teams, ranks=ranks)
        after = (Skill(new_first.mu, new_first.sigma), Skill(new_second.mu, new_second.sigma))
        return (
            first if frozen[0] else after[0],
            second if frozen[1] else after[1],
        )

    def expected(self, first: Skill, second: Skill) -> float:
        """The chance that ``first`` beats ``second``, as the model sees it."""
        teams = [[self._model.rating(mu=s.mu, sigma=s.sigma)] for s in (first, second)]
        return float(self._model.predict_win(teams)[0])

    def settled(self, skill: Skill) -> bool:
        """Whether an anchor with ``skill`` has settled (its rating is kept from now on)."""
        return skill.sigma <= self.anchor_settle_sigma
