"""Moderation: moderators, sanctions (bans of names and networks, mutes), players'
reports with their context, the audit log of every action, and accounts' blocks.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0006"
down_revision: str | None = "0005"
branch_labels: tuple[str, ...] | None = None
depends_on: tuple[str, ...] | None = None

Stamp = sa.DateTime(timezone=True)
Json = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    """Create the moderation tables."""
    op.create_table(
        "moderators",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("granted_at", Stamp, nullable=False),
        sa.Column("granted_by", sa.String, nullable=False),
    )
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("subject", sa.String, nullable=False),
        sa.Column("shown", sa.String, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("actor", sa.String, nullable=False),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("expires_at", Stamp, nullable=True),
        sa.Column("lifted_at", Stamp, nullable=True),
    )
    op.create_index("ix_sanctions_kind_subject", "sanctions", ["kind", "subject"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.String, nullable=False),
        sa.Column("subject", sa.String, nullable=False),
        sa.Column("subject_key", sa.String, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("context", Json, nullable=False),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("closed_at", Stamp, nullable=True),
        sa.Column("closed_by", sa.String, nullable=True),
        sa.Column("resolution", sa.Text, nullable=True),
    )
    op.create_index("ix_reports_open", "reports", ["closed_at", "id"])
    op.create_index("ix_reports_subject", "reports", ["subject_key"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", Stamp, nullable=False),
        sa.Column("actor", sa.String, nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("subject", sa.String, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("until", Stamp, nullable=True),
    )
    op.create_table(
        "blocks",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("blocked_key", sa.String, primary_key=True),
        sa.Column("blocked", sa.String, nullable=False),
        sa.Column("created_at", Stamp, nullable=False),
    )


def downgrade() -> None:
    """Drop the moderation tables."""
    for table in ("blocks", "audit_log", "reports", "sanctions", "moderators"):
        op.drop_table(table)
