"""Room owners: each game's owner and epoch, which fence its writes.

Revision ID: 0005
Revises: 0004

``games`` gains ``owner`` (the name of the node that holds the game's room, once a
node took it over) and ``epoch`` (0 when the game is made, one more at each takeover).
A node writes a game's moves and end only with the epoch it holds, in the same
statement that checks the ply, so a node that lost the room (paused past its lease,
say) can never write in it again (see ``gamut_server.storage.fence``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: tuple[str, ...] | None = None
depends_on: tuple[str, ...] | None = None


def upgrade() -> None:
    """Add the games' ``owner`` and ``epoch``."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("owner", sa.String, nullable=True))
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop the games' ``owner`` and ``epoch``."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("epoch")
        batch.drop_column("owner")
