"""The tables, as SQLAlchemy Core: games, moves, chat and accounts.

Each side's clock is a pair of columns (``clock0_ms``, ``clock1_ms``), null for an
untimed game, plus ``to_move``. Timestamps are stored in UTC and read back as aware
``datetime`` values on every backend.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB

metadata = MetaData()
"""Every table of the store; ``create_all`` on it builds the schema."""


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp kept in UTC: aware values in, aware UTC values out (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Convert to UTC; SQLite gets the naive UTC wall time."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Attach UTC to naive values read back from SQLite."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


JSONColumn = JSON().with_variant(JSONB(), "postgresql")
"""JSON everywhere, JSONB on PostgreSQL."""

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String, nullable=False, unique=True),
    Column("name_key", String, nullable=False),
    Column("token_hash", String),
    Column("password_hash", String),
    Column("created_at", UTCDateTime, nullable=False),
    Column("revoked", Boolean, nullable=False, default=False),
    UniqueConstraint("name_key", name="uq_accounts_name_key"),
)
"""Registered names, each unique whatever its case (``name_key`` is the name folded);
only argon2 hashes of a bot's token and of a person's password are kept."""


def _player_columns(side: int) -> list[Column[object]]:
    """Name, kind and account of the player at ``side`` (all null for an empty seat)."""
    return [
        Column(f"p{side}_name", String),
        Column(f"p{side}_kind", String(8)),
        Column(f"p{side}_account", Integer, ForeignKey("accounts.id")),
    ]


games = Table(
    "games",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String, nullable=False),
    Column("options", JSONColumn, nullable=False),
    Column("time_control", JSONColumn, nullable=False),
    *_player_columns(0),
    *_player_columns(1),
    Column("rated", Boolean, nullable=False, default=False),
    Column("pool", String),
    Column("status", String(8), nullable=False),
    Column("winner", SmallInteger),
    Column("reason", String),
    Column("line", JSONColumn),
    Column("clock0_ms", Integer),
    Column("clock1_ms", Integer),
    Column("to_move", SmallInteger, nullable=False),
    Column("clock_at", UTCDateTime),
    Column("plies", Integer, nullable=False, default=0),
    Column("last_seq", Integer, nullable=False, default=0),
    Column("created_at", UTCDateTime, nullable=False),
    Column("started_at", UTCDateTime),
    Column("finished_at", UTCDateTime),
    Column("owner", String),
    Column("epoch", Integer, nullable=False, default=0, server_default="0"),
    CheckConstraint(
        "status IN ('waiting', 'running', 'finished', 'aborted')", name="ck_games_status"
    ),
    Index("ix_games_status_finished", "status", "finished_at"),
    Index("ix_games_game_status_finished", "game", "status", "finished_at"),
    Index("ix_games_p0_name", "p0_name"),
    Index("ix_games_p1_name", "p1_name"),
    Index("ix_games_p0_account", "p0_account"),
    Index("ix_games_p1_account", "p1_account"),
)
"""One row per game: its setup, players, status, result and the clocks at the last move;
``owner`` and ``epoch`` fence the writes of a cluster's nodes (the node that took the
room over last, and how many takeovers there were)."""

moves = Table(
    "moves",
    metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("move", String, nullable=False),
    Column("side", SmallInteger, nullable=False),
    Column("think_ms", Integer, nullable=False),
    Column("clock0_ms", Integer),
    Column("clock1_ms", Integer),
    Column("to_move", SmallInteger, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("at", UTCDateTime, nullable=False),
)
"""One row per accepted move; the (game_id, ply) key makes a duplicate impossible."""

chat = Table(
    "chat",
    metadata,
    Column("room", String, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("author", String, nullable=False),
    Column("text", Text, nullable=False),
    Column("at", UTCDateTime, nullable=False),
)
"""Chat lines per room, keyed by the room's sequence number for replay."""
