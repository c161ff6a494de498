"""Baseline: games, moves, chat, accounts and the ladder's tables as of the first release.

Revision ID: 0001
Revises: none

The tables are frozen here as they were, apart from the live ones in ``schema.py`` and
``ladder_schema.py``, which later revisions change. Databases made before migrations
existed were built by ``create_all`` from those same definitions, so this revision
creates only the tables missing (none for such a database, all for an empty one) and
leaves every row where it is.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0001"
down_revision: str | None = None
branch_labels: tuple[str, ...] | None = None
depends_on: tuple[str, ...] | None = None

Stamp = sa.DateTime(timezone=True)
Json = sa.JSON().with_variant(JSONB(), "postgresql")


def _player(side: int) -> list[sa.Column[object]]:
    return [
        sa.Column(f"p{side}_name", sa.String),
        sa.Column(f"p{side}_kind", sa.String(8)),
        sa.Column(f"p{side}_account", sa.Integer, sa.ForeignKey("accounts.id")),
    ]


def _tables() -> sa.MetaData:
    """The baseline's tables on a metadata of their own."""
    meta = sa.MetaData()
    sa.Table(
        "accounts",
        meta,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String, nullable=False, unique=True),
        sa.Column("token_hash", sa.String, nullable=False),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("revoked", sa.Boolean, nullable=False),
    )
    sa.Table(
        "games",
        meta,
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("options", Json, nullable=False),
        sa.Column("time_control", Json, nullable=False),
        *_player(0),
        *_player(1),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("pool", sa.String),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("winner", sa.SmallInteger),
        sa.Column("reason", sa.String),
        sa.Column("line", Json),
        sa.Column("clock0_ms", sa.Integer),
        sa.Column("clock1_ms", sa.Integer),
        sa.Column("to_move", sa.SmallInteger, nullable=False),
        sa.Column("clock_at", Stamp),
        sa.Column("plies", sa.Integer, nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("started_at", Stamp),
        sa.Column("finished_at", Stamp),
        sa.CheckConstraint(
            "status IN ('waiting', 'running', 'finished', 'aborted')", name="ck_games_status"
        ),
        sa.Index("ix_games_status_finished", "status", "finished_at"),
        sa.Index("ix_games_game_status_finished", "game", "status", "finished_at"),
        sa.Index("ix_games_p0_name", "p0_name"),
        sa.Index("ix_games_p1_name", "p1_name"),
    )
    sa.Table(
        "moves",
        meta,
        sa.Column(
            "game_id",
            sa.String(16),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("move", sa.String, nullable=False),
        sa.Column("side", sa.SmallInteger, nullable=False),
        sa.Column("think_ms", sa.Integer, nullable=False),
        sa.Column("clock0_ms", sa.Integer),
        sa.Column("clock1_ms", sa.Integer),
        sa.Column("to_move", sa.SmallInteger, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("at", Stamp, nullable=False),
    )
    sa.Table(
        "chat",
        meta,
        sa.Column("room", sa.String, primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("author", sa.String, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", Stamp, nullable=False),
    )
    _ladder_tables(meta)
    return meta


def _ladder_tables(meta: sa.MetaData) -> None:
    """Ratings, rating history, pool membership and the queue's history."""
    sa.Table(
        "ladder_ratings",
        meta,
        sa.Column("pool", sa.String, primary_key=True),
        sa.Column("name", sa.String, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
        sa.Column("first_side", sa.Integer, nullable=False),
        sa.Column("last_played_at", Stamp),
    )
    sa.Table(
        "ladder_history",
        meta,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("pool", sa.String, nullable=False),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("side", sa.SmallInteger, nullable=False),
        sa.Column("opponent", sa.String, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", Stamp, nullable=False),
        sa.UniqueConstraint("game_id", "name", name="uq_ladder_history_game_name"),
        sa.Index("ix_ladder_history_pool_at", "pool", "at"),
    )
    sa.Table(
        "ladder_members",
        meta,
        sa.Column("pool", sa.String, primary_key=True),
        sa.Column("name", sa.String, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("member", sa.Boolean, nullable=False),
        sa.Column("joined_at", Stamp, nullable=False),
        sa.Column("left_at", Stamp),
        sa.Column("last_seen_at", Stamp),
    )
    sa.Table(
        "ladder_queue",
        meta,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("pool", sa.String, nullable=False),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("event", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(16)),
        sa.Column("wait_ms", sa.Integer),
        sa.Column("at", Stamp, nullable=False),
        sa.Index("ix_ladder_queue_pool_at", "pool", "at"),
    )


def upgrade() -> None:
    """Create every baseline table (and its indexes) that is not there yet."""
    _tables().create_all(op.get_bind(), checkfirst=True)


def downgrade() -> None:
    """Drop the baseline's tables."""
    _tables().drop_all(op.get_bind(), checkfirst=True)
