"""The ladder's tables: ratings per player and pool, the rating history of every rated
game, pool membership, and the queue's history."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
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

ladder_ratings = Table(
    "ladder_ratings",
    metadata,
    Column("pool", String, primary_key=True),
    Column("name", String, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id")),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("wins", Integer, nullable=False, default=0),
    Column("draws", Integer, nullable=False, default=0),
    Column("losses", Integer, nullable=False, default=0),
    Column("first_side", Integer, nullable=False, default=0),
    Column("last_played_at", UTCDateTime),
)
"""One row per player and pool: the current rating and record."""

ladder_history = Table(
    "ladder_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(16), ForeignKey("games.id"), nullable=False),
    Column("pool", String, nullable=False),
    Column("name", String, nullable=False),
    Column("side", SmallInteger, nullable=False),
    Column("opponent", String, nullable=False),
    Column("score", Float, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", UTCDateTime, nullable=False),
    UniqueConstraint("game_id", "name", name="uq_ladder_history_game_name"),
    Index("ix_ladder_history_pool_at", "pool", "at"),
)
"""Two rows per rated game, one per player: the rating before and after it."""

ladder_members = Table(
    "ladder_members",
    metadata,
    Column("pool", String, primary_key=True),
    Column("name", String, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id")),
    Column("member", Boolean, nullable=False),
    Column("joined_at", UTCDateTime, nullable=False),
    Column("left_at", UTCDateTime),
    Column("last_seen_at", UTCDateTime),
)
"""Who joined which pool and has not left it (``member``), kept across restarts."""

ladder_queue = Table(
    "ladder_queue",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("pool", String, nullable=False),
    Column("name", String, nullable=False),
    Column("event", String(16), nullable=False),
    Column("game_id", String(16)),
    Column("wait_ms", Integer),
    Column("at", UTCDateTime, nullable=False),
    Index("ix_ladder_queue_pool_at", "pool", "at"),
)
"""The queue's history: joins, leaves, waits, pairings, absences, timeouts."""
