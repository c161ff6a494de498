"""Guest claims: the hash of the token each guest name was last bound with.

Revision ID: 0002
Revises: 0001

Kept so that a guest seated in an unfinished game still holds the seat after a
restart (see ``gamut_server.storage.guest_claims``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: tuple[str, ...] | None = None
depends_on: tuple[str, ...] | None = None


def upgrade() -> None:
    """Create the ``guest_claims`` table."""
    op.create_table(
        "guest_claims",
        sa.Column("name", sa.String, primary_key=True),
        sa.Column("token_hash", sa.String, nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the ``guest_claims`` table."""
    op.drop_table("guest_claims")
