"""What the store keeps about people besides their account: ratings per category, the
rating history, and their games' tally."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TypeAlias

SkillPair: TypeAlias = tuple[float, float]
"""A rating as ``(mu, sigma)``."""

Rater: TypeAlias = Callable[[SkillPair, SkillPair], tuple[SkillPair, SkillPair]]
"""Rates a game from the two players' ratings before it: the two ratings after it. The
store calls it inside the transaction that stores them, so that each game is rated from
the ratings its players have when it ends."""


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One account's rating and record in one category."""

    account_id: int
    """The account."""
    category: str
    """The rating category's id."""
    mu: float
    """The rating."""
    sigma: float
    """Its uncertainty."""
    wins: int
    """Rated games won in the category."""
    draws: int
    """Rated games drawn."""
    losses: int
    """Rated games lost."""
    last_played_at: datetime
    """When the latest rated game in the category ended."""

    @property
    def games(self) -> int:
        """Rated games played in the category."""
        return self.wins + self.draws + self.losses


@dataclass(frozen=True, slots=True)
class RatedGameSides:
    """A rated game between two accounts, as the store rates it."""

    game_id: str
    """The game."""
    category: str
    """Its rating category."""
    accounts: tuple[int, int]
    """The accounts at side 0 and side 1."""
    winner: int | None
    """The winning side, ``None`` for a draw."""


@dataclass(frozen=True, slots=True)
class RatingStep:
    """One player's rating before and after one rated game."""

    game_id: str
    """The game."""
    account_id: int
    """The player's account."""
    category: str
    """The category."""
    side: int
    """The side the player had."""
    score: float
    """1 for a win, ½ for a draw, 0 for a loss."""
    before: SkillPair
    """``(mu, sigma)`` before the game."""
    after: SkillPair
    """``(mu, sigma)`` after it."""
    at: datetime
    """When the game was rated."""


@dataclass(frozen=True, slots=True)
class Tally:
    """A player's finished games: won, drawn and lost (aborted games do not count)."""

    wins: int = 0
    """Games won."""
    draws: int = 0
    """Games drawn."""
    losses: int = 0
    """Games lost."""


@dataclass(frozen=True, slots=True)
class Leader:
    """One account among the best of a category."""

    name: str
    """The account's name."""
    rating: PlayerRating
    """Its rating and record there."""
