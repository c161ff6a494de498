"""Schema migrations: where a database stands, and bringing it to this Gamut's tables.

The revisions live in :mod:`gamut_server.storage.migrations` (Alembic). A database made
before migrations existed has Gamut's tables but no ``alembic_version`` table; the
baseline revision creates only missing tables, so upgrading such a database keeps
every row and records the revision.

An upgrade runs in one transaction that holds the database's write lock (SQLite's
``BEGIN IMMEDIATE``, a PostgreSQL advisory lock), so servers starting together upgrade
one after the other and the later ones find nothing left to do. On SQLite, which alters
a table by copying it, foreign keys are switched off around that transaction and
checked before it commits, as SQLite's own documentation of ``ALTER TABLE`` prescribes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from gamut_server.storage.errors import SchemaError
from gamut_server.storage.group_transaction import WRITER_OPTION

log = logging.getLogger(__name__)

MIGRATIONS: Final = Path(__file__).with_name("migrations")
"""Alembic's script directory."""

LOCK_KEY: Final = 0x6761_6D75_7400
"""PostgreSQL advisory lock taken while migrating (``gamut\\0`` in ASCII)."""


@dataclass(frozen=True, slots=True)
class SchemaState:
    """Where a database stands against this Gamut's revisions."""

    current: str | None
    """Its recorded revision; ``None`` if it records none."""
    head: str
    """The newest revision this Gamut knows."""
    has_tables: bool
    """Whether it has Gamut's tables (``False``: an empty database)."""

    @property
    def up_to_date(self) -> bool:
        """Whether the database is at this Gamut's newest revision."""
        return self.current == self.head

    @property
    def known(self) -> bool:
        """Whether this Gamut knows the recorded revision (an unknown one is newer)."""
        if self.current is None:
            return True
        try:
            return _scripts().get_revision(self.current) is not None
        except CommandError:
            return False

    def upgraded(self) -> str:
        """What upgrading the database from here did, in a line for the server's log."""
        if self.current is None and not self.has_tables:
            return f"created the database's tables at revision {self.head}"
        since = "before migrations" if self.current is None else f"revision {self.current}"
        return f"upgraded the database's tables from {since} to revision {self.head}"

    def describe(self) -> str:
        """Where the database stands, to follow "the database" in a sentence for people."""
        if self.up_to_date:
            return f"is at revision {self.current}, the newest this Gamut knows"
        if not self.known:
            return (
                f"is at revision {self.current}, which this Gamut does not know: a newer "
                f"Gamut upgraded it (this one knows revisions up to {self.head})"
            )
        if self.current is not None:
            return f"is at revision {self.current}, but this Gamut needs revision {self.head}"
        if self.has_tables:
            return f"was made before Gamut had migrations and needs revision {self.head}"
        return f"is empty: it has no Gamut tables yet (this Gamut needs revision {self.head})"


@cache
def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@cache
def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


def head_revision() -> str:
    """The newest revision this Gamut knows."""
    head = _scripts().get_current_head()
    if head is None:
        raise RuntimeError(f"no migration revisions in {MIGRATIONS}")
    return head


def _state(conn: Connection) -> SchemaState:
    current = MigrationContext.configure(conn).get_current_revision()
    return SchemaState(current, head_revision(), inspect(conn).has_table("games"))


async def schema_state(engine: AsyncEngine) -> SchemaState:
    """Where the database behind ``engine`` stands."""
    async with engine.connect() as conn:
        return await conn.run_sync(_state)


def _upgrade(conn: Connection) -> SchemaState:
    before = _state(conn)
    if not before.known:
        raise SchemaError(f"the database {before.describe()}; upgrade this Gamut to use it")
    config = _config()
    config.attributes["connection"] = conn
    try:
        command.upgrade(config, "head")
    finally:
        del config.attributes["connection"]
    _check_foreign_keys(conn)
    return before


def _check_foreign_keys(conn: Connection) -> None:
    """On SQLite (whose foreign keys are off while it migrates), refuse to commit an
    upgrade that left a row pointing nowhere."""
    if conn.dialect.name != "sqlite":
        return
    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        tables = ", ".join(sorted({str(row[0]) for row in broken}))
        raise SchemaError(f"the upgrade would leave rows of {tables} pointing at no row")


async def _sqlite_foreign_keys(conn: AsyncConnection, *, on: bool) -> None:
    """Switch SQLite's foreign keys on or off for ``conn`` (outside any transaction)."""
    if conn.dialect.name == "sqlite":
        await conn.exec_driver_sql(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")
        await conn.commit()


async def _lock(conn: AsyncConnection) -> None:
    """Take the migration lock (PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` already has one)."""
    if conn.dialect.name == "postgresql":
        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})


async def _create_schema(conn: AsyncConnection, schema: str | None) -> None:
    if schema is not None:
        quoted = conn.dialect.identifier_preparer.quote_schema(schema)
        await conn.exec_driver_sql(f"CREATE SCHEMA IF NOT EXISTS {quoted}")


async def upgrade(engine: AsyncEngine, schema: str | None = None) -> SchemaState:
    """Bring the database to the newest revision; returns where it stood before.

    ``schema`` (PostgreSQL) is created first if missing. Raises :class:`SchemaError`
    for a database a newer Gamut has upgraded.
    """
    async with engine.connect() as conn:
        await _sqlite_foreign_keys(conn, on=False)
        try:
            writer = await conn.execution_options(**{WRITER_OPTION: True})
            async with writer.begin():
                await _lock(writer)
                await _create_schema(writer, schema)
                return await writer.run_sync(_upgrade)
        finally:
            await _sqlite_foreign_keys(conn, on=True)


async def prepare(engine: AsyncEngine, schema: str | None, *, migrate: bool) -> None:
    """Make sure the database has this Gamut's tables before it is used.

    With ``migrate`` an older (or empty) database is upgraded; without it, any database
    not at the newest revision raises :class:`SchemaError` saying where it stands.
    """
    state = await schema_state(engine)
    if state.up_to_date:
        return
    if not migrate:
        raise SchemaError(
            f"the database {state.describe()}; run `gamut db upgrade` "
            "(or start the server without --no-migrate) to bring it up to date"
        )
    before = await upgrade(engine, schema)
    if not before.up_to_date:  # another server may have upgraded it meanwhile
        log.info(before.upgraded())
