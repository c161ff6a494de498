"""Plain records of tournaments, shared by the tournaments' pure core and the store."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, TypeAlias

TournamentKind: TypeAlias = Literal["arena", "round_robin"]
"""An arena (paired again as each game ends, for a fixed time) or a round robin."""

TournamentStatus: TypeAlias = Literal["upcoming", "running", "finished"]
"""Where a tournament stands."""

Entry: TypeAlias = Literal["people", "bots", "both"]
"""Who may enter."""

GameStatus: TypeAlias = Literal["scheduled", "playing", "finished", "aborted", "forfeit"]
"""Where one game of a tournament stands: ``forfeit`` is a game a withdrawn player did
not play, won by the other."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentSettings:
    """A tournament's settings, as asked for and checked, and as stored."""

    name: str
    game: str
    """The engine's registry name."""
    options: dict[str, Any]
    """The game's options."""
    time_control: dict[str, Any]
    """The time control, as the protocol writes it."""
    kind: TournamentKind
    rated: bool
    entry: Entry
    starts_at: datetime
    minutes: int | None
    """An arena's length."""
    rounds: int | None
    """A round robin's cycles: each cycle, every pair meets once with each colour."""
    openings: list[list[str]] | None = None
    """Openings the games start from (moves in the game's notation), or ``None``: a round
    robin's pair meets from the same opening with each colour in each cycle."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentRecord(TournamentSettings):
    """One tournament: its settings and where it stands."""

    id: str
    status: TournamentStatus
    created_by: str
    """The account that created it."""
    created_at: datetime
    finished_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player entered in a tournament."""

    name: str
    kind: str
    """``human`` or ``bot``."""
    account_id: int | None
    withdrawn: bool
    joined_at: datetime


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """One game of a tournament."""

    number: int
    """Its place among the tournament's games, from 0."""
    round: int
    """The round (a round robin's) or the pairing wave (an arena's), from 0."""
    first: str
    """The player moving first."""
    second: str
    """The player moving second."""
    game_id: str | None
    """The stored game, once it is opened."""
    status: GameStatus
    winner: int | None = None
    """The winning side (0 for :attr:`first`), ``None`` for a draw or no result."""
    reason: str | None = None
    """Why it ended."""
