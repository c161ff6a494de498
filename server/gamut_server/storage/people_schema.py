"""People's tables: sign-in sessions, a rating per account and category, and the rating
history of every rated game between people."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Table,
    UniqueConstraint,
)

from gamut_server.storage.schema import UTCDateTime, metadata

sessions = Table(
    "sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
    Index("ix_sessions_account", "account_id"),
)
"""Signed-in sessions: the SHA-256 of each session's secret, never the secret itself."""

player_ratings = Table(
    "player_ratings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("category", String, primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("wins", Integer, nullable=False, default=0),
    Column("draws", Integer, nullable=False, default=0),
    Column("losses", Integer, nullable=False, default=0),
    Column("last_played_at", UTCDateTime, nullable=False),
    Index("ix_player_ratings_category", "category"),
)
"""One row per account and rating category it has played in: its rating and record."""

player_rating_history = Table(
    "player_rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(16), ForeignKey("games.id"), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("category", String, nullable=False),
    Column("side", SmallInteger, nullable=False),
    Column("score", Float, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", UTCDateTime, nullable=False),
    UniqueConstraint("game_id", "account_id", name="uq_player_rating_history_game_account"),
    Index("ix_player_rating_history_account", "account_id", "category", "at"),
)
"""Two rows per rated game between people, one per player: the rating before and after."""
