"""Tournaments: each tournament, its entrants and its games.

Revision ID: 0007
Revises: 0006

See ``gamut_server.storage.tournaments``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0007"
down_revision: str | None = "0006"
branch_labels: tuple[str, ...] | None = None
depends_on: tuple[str, ...] | None = None

Stamp = sa.DateTime(timezone=True)
JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    """Create the tournaments' tables."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("options", JSON, nullable=False),
        sa.Column("time_control", JSON, nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("entry", sa.String(8), nullable=False),
        sa.Column("starts_at", Stamp, nullable=False),
        sa.Column("minutes", sa.Integer),
        sa.Column("rounds", sa.Integer),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("created_by", sa.String, nullable=False),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("finished_at", Stamp),
        sa.Column("openings", JSON),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entrants",
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("name", sa.String, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False),
        sa.Column("joined_at", Stamp, nullable=False),
    )
    op.create_table(
        "tournament_games",
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("first", sa.String, nullable=False),
        sa.Column("second", sa.String, nullable=False),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id")),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("winner", sa.SmallInteger),
        sa.Column("reason", sa.String),
    )


def downgrade() -> None:
    """Drop the tournaments' tables."""
    op.drop_table("tournament_games")
    op.drop_table("tournament_entrants")
    op.drop_table("tournaments")
