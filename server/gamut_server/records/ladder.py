"""What Gamut records of its ladder: ratings, their history and the pools' queues."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, TypeAlias

QueueEvent: TypeAlias = Literal["join", "leave", "queued", "paired", "away", "back", "timeout"]
"""What happened to a player in a pool's queue."""


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One player's rating and record in one pool."""

    pool: str
    """The pool."""
    name: str
    """The player."""
    kind: str
    """``bot``, ``human`` or ``ai``."""
    mu: float
    """The rating."""
    sigma: float
    """Its uncertainty."""
    wins: int = 0
    """Rated games won."""
    draws: int = 0
    """Rated games drawn."""
    losses: int = 0
    """Rated games lost."""
    first_side: int = 0
    """Games played on side 0 minus games on side 1 (the colour balance)."""
    account_id: int | None = None
    """The player's account (``None`` for the AI)."""
    last_played_at: datetime | None = None
    """When the player's latest rated game in the pool ended."""


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """One player's side of a rated game: the rating before and after."""

    name: str
    """The player."""
    kind: str
    """``bot``, ``human`` or ``ai``."""
    side: int
    """The side played."""
    score: float
    """1 for a win, 0.5 for a draw, 0 for a loss."""
    before: tuple[float, float]
    """``(mu, sigma)`` before the game."""
    after: tuple[float, float]
    """``(mu, sigma)`` after it."""
    account_id: int | None = None
    """The player's account (``None`` for the AI)."""


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One player's rating change in one rated game."""

    game_id: str
    """The game."""
    pool: str
    """Its pool."""
    name: str
    """The player."""
    side: int
    """The side played."""
    opponent: str
    """Who the player met."""
    score: float
    """1, 0.5 or 0."""
    before: tuple[float, float]
    """``(mu, sigma)`` before the game."""
    after: tuple[float, float]
    """``(mu, sigma)`` after it."""
    at: datetime
    """When the game was rated."""


@dataclass(frozen=True, slots=True)
class Membership:
    """A player's place in a pool."""

    pool: str
    """The pool."""
    name: str
    """The player."""
    member: bool
    """Whether it has joined and not left."""
    joined_at: datetime
    """When it (last) joined."""
    left_at: datetime | None
    """When it last left, if it did."""
    last_seen_at: datetime | None
    """When it was last connected while a member."""


@dataclass(frozen=True, slots=True)
class QueueRecord:
    """One event of a pool's queue."""

    pool: str
    """The pool."""
    name: str
    """The player."""
    event: QueueEvent
    """What happened."""
    at: datetime
    """When."""
    game_id: str | None = None
    """The game a pairing started."""
    wait_ms: int | None = None
    """How long the player had waited, for a pairing."""
