"""Analyses: the AI's analysis of each finished game, from its request to its report.

Revision ID: 0003
Revises: 0002

See ``gamut_server.storage.analyses``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0003"
down_revision: str | None = "0002"
branch_labels: tuple[str, ...] | None = None
depends_on: tuple[str, ...] | None = None


def upgrade() -> None:
    """Create the ``analyses`` table."""
    op.create_table(
        "analyses",
        sa.Column(
            "game_id",
            sa.String(16),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("work", sa.Integer, nullable=False),
        sa.Column("report", sa.JSON().with_variant(JSONB(), "postgresql")),
        sa.Column("message", sa.Text),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
        sa.CheckConstraint(
            "status IN ('queued', 'running', 'done', 'failed')", name="ck_analyses_status"
        ),
    )


def downgrade() -> None:
    """Drop the ``analyses`` table."""
    op.drop_table("analyses")
