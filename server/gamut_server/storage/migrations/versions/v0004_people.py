"""People: passwords, one name whatever its case, sessions and ratings per category.

Revision ID: 0004
Revises: 0003

``accounts`` gains ``name_key`` (the name folded to lower case, unique) and
``password_hash``, and ``token_hash`` may be empty (a person signs in with a
password). Accounts registered before, whose names differ only in case, keep their
rows: the oldest takes the folded name, each later one a key no name can have
(``ada~7``), so its owner still signs in under its exact spelling. New tables keep the
sign-in sessions and people's ratings; games are indexed by their players' accounts.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: tuple[str, ...] | None = None
depends_on: tuple[str, ...] | None = None

Stamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Add the accounts' new columns, fill ``name_key``, and create the new tables."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_key", sa.String, nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String, nullable=True))
        batch.alter_column("token_hash", existing_type=sa.String, nullable=True)
    _fill_name_keys()
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("name_key", existing_type=sa.String, nullable=False)
        batch.create_unique_constraint("uq_accounts_name_key", ["name_key"])
    op.create_index("ix_games_p0_account", "games", ["p0_account"])
    op.create_index("ix_games_p1_account", "games", ["p1_account"])
    _create_people_tables()


def _fill_name_keys() -> None:
    """Give every account its folded name, oldest first; a later one folding to a name
    already taken gets ``folded~id`` instead."""
    bind = op.get_bind()
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String))
    keys = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name_key", sa.String))
    taken: set[str] = set()
    for row in bind.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)):
        key = row.name.lower()
        if key in taken:
            key = f"{key}~{row.id}"
        taken.add(key)
        bind.execute(sa.update(keys).where(keys.c.id == row.id).values(name_key=key))


def _create_people_tables() -> None:
    """Sessions, ratings and rating history."""
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("expires_at", Stamp, nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_table(
        "player_ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("category", sa.String, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
        sa.Column("last_played_at", Stamp, nullable=False),
    )
    op.create_index("ix_player_ratings_category", "player_ratings", ["category"])
    op.create_table(
        "player_rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("category", sa.String, nullable=False),
        sa.Column("side", sa.SmallInteger, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", Stamp, nullable=False),
        sa.UniqueConstraint("game_id", "account_id", name="uq_player_rating_history_game_account"),
    )
    op.create_index(
        "ix_player_rating_history_account",
        "player_rating_history",
        ["account_id", "category", "at"],
    )


def downgrade() -> None:
    """Drop the new tables and columns; a person's account gets a token hash no token
    matches (the older schema needs one)."""
    for table in ("player_rating_history", "player_ratings", "sessions"):
        op.drop_table(table)
    op.drop_index("ix_games_p1_account", "games")
    op.drop_index("ix_games_p0_account", "games")
    op.execute("UPDATE accounts SET token_hash = '!' WHERE token_hash IS NULL")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_name_key", type_="unique")
        batch.drop_column("password_hash")
        batch.drop_column("name_key")
        batch.alter_column("token_hash", existing_type=sa.String, nullable=False)
