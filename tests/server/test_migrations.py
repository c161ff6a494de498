"""Schema migrations on SQLite and PostgreSQL: databases made before migrations existed
are upgraded with every row intact, a fresh database gets exactly the live tables, and a
server told not to migrate refuses with a sentence instead of touching the tables."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Boolean, String, column, insert, table, text
from sqlalchemy.engine import Connection, make_url

from gamut_server.storage import Clock, DuplicateAccountError, SchemaError, Store, database_url
from gamut_server.storage.connect import make_engine
from gamut_server.storage.migrate import head_revision, schema_state, upgrade
from gamut_server.storage.schema import UTCDateTime, metadata
from tests.server.legacy.content import snapshot
from tests.server.storage_backends import Backend

LEGACY = Path(__file__).resolve().parent / "legacy"
LEGACY_SCHEMA = "gamut_legacy"


async def load_legacy(backend: Backend) -> None:
    """Fill the backend's empty database from the dump made before migrations."""
    if backend.schema is None:
        path = make_url(backend.url).database
        assert path
        with sqlite3.connect(path) as connection:
            connection.executescript((LEGACY / "sqlite.sql").read_text())
        return
    dump = (LEGACY / "postgresql.sql").read_text().replace(LEGACY_SCHEMA, backend.schema)
    # psql's own commands (\restrict…) mean nothing to the server.
    script = "\n".join(line for line in dump.splitlines() if not line.startswith("\\"))
    engine = make_engine(database_url(backend.url), None)
    try:
        async with engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
            assert driver is not None
            # asyncpg's own connection runs a whole script in one call.
            await driver.execute(script)
    finally:
        await engine.dispose()


def expected_snapshot() -> dict[str, Any]:
    """What the Gamut without migrations read back from the dumped database."""
    expected: dict[str, Any] = json.loads((LEGACY / "snapshot.json").read_text())
    return expected


async def recorded_revision(backend: Backend) -> str | None:
    """The revision the database records, read without the store."""
    engine = make_engine(database_url(backend.url), backend.schema)
    try:
        return (await schema_state(engine)).current
    finally:
        await engine.dispose()


async def test_a_database_made_before_migrations_is_upgraded_with_every_row(
    backend: Backend,
) -> None:
    await load_legacy(backend)
    assert await recorded_revision(backend) is None
    async with await backend.open() as store:
        assert await snapshot(store) == expected_snapshot()
        # The upgraded database still takes writes: sequences and keys carried over.
        account = await store.create_account("zoe", "hash-of-zoe")
        assert account.id == 4
        await store.record_move(
            "running1", ply=4, move="g7", side=0, think_ms=5, clock=Clock((296_000, 298_500), 1),
            seq=6,
        )  # fmt: skip
        assert [m.move for m in (await store.game("running1")).moves][-2:] == ["f6", "g7"]
    assert await recorded_revision(backend) == head_revision()


async def test_upgrading_twice_changes_nothing(backend: Backend) -> None:
    await load_legacy(backend)
    for _ in range(2):
        async with await backend.open() as store:
            assert await snapshot(store) == expected_snapshot()


async def test_without_migrating_an_older_database_is_refused_and_left_alone(
    backend: Backend,
) -> None:
    await load_legacy(backend)
    with pytest.raises(SchemaError, match=r"made before Gamut had migrations.*gamut db upgrade"):
        await Store.open(backend.url, schema=backend.schema, migrate=False)
    assert await recorded_revision(backend) is None
    async with await backend.open() as store:
        assert await snapshot(store) == expected_snapshot()
    async with await Store.open(backend.url, schema=backend.schema, migrate=False) as store:
        assert (await store.game("finished1")).info.plies == 3


async def test_without_migrating_an_empty_database_is_refused(backend: Backend) -> None:
    with pytest.raises(SchemaError, match="no Gamut tables yet"):
        await Store.open(backend.url, schema=backend.schema, migrate=False)


def _differences(conn: Connection) -> list[Any]:
    context = MigrationContext.configure(conn, opts={"compare_type": True})
    return list(compare_metadata(context, metadata))


async def test_the_newest_revision_builds_exactly_the_live_tables(backend: Backend) -> None:
    """A table or column added to the schema without a revision fails here."""
    await (await backend.open()).close()
    engine = make_engine(database_url(backend.url), backend.schema)
    try:
        async with engine.connect() as conn:
            assert await conn.run_sync(_differences) == []
    finally:
        await engine.dispose()


async def test_a_database_from_a_newer_gamut_is_refused(backend: Backend) -> None:
    await (await backend.open()).close()
    engine = make_engine(database_url(backend.url), backend.schema)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("UPDATE alembic_version SET version_num = 'f00d'"))
    finally:
        await engine.dispose()
    with pytest.raises(SchemaError, match="revision f00d, which this Gamut does not know"):
        await backend.open()


async def test_servers_starting_together_upgrade_once(backend: Backend) -> None:
    await load_legacy(backend)
    engines = [make_engine(database_url(backend.url), backend.schema) for _ in range(3)]
    try:
        before = await asyncio.gather(*(upgrade(engine, backend.schema) for engine in engines))
    finally:
        for engine in engines:
            await engine.dispose()
    assert sorted(state.current or "none" for state in before) == [head_revision()] * 2 + ["none"]
    async with await backend.open() as store:
        assert await snapshot(store) == expected_snapshot()


async def test_accounts_whose_names_differ_only_in_case_keep_their_rows(backend: Backend) -> None:
    """Before names were one whatever their case, ``ADA`` could be registered beside ``ada``:
    the upgrade keeps both, the older owning the folded name."""
    await load_legacy(backend)
    engine = make_engine(database_url(backend.url), backend.schema)
    try:
        legacy = table(
            "accounts",
            column("name", String),
            column("token_hash", String),
            column("created_at", UTCDateTime),
            column("revoked", Boolean),
        )
        row = {
            "name": "ADA",
            "token_hash": "argon2-hash-of-ADA",
            "created_at": datetime(2026, 6, 2, 10, tzinfo=UTC),
            "revoked": False,
        }
        async with engine.begin() as conn:
            await conn.execute(insert(legacy).values(row))
    finally:
        await engine.dispose()
    async with await backend.open() as store:
        older, later = await store.account("ada"), await store.account("ADA")
        assert older is not None
        assert later is not None
        assert (older.name, older.name_key) == ("ada", "ada")
        assert (later.name, later.name_key) == ("ADA", f"ada~{later.id}")
        assert later.token_hash == "argon2-hash-of-ADA"
        found = await store.account("Ada")
        assert found is not None
        assert found.id == older.id, "another spelling finds the older account"
        with pytest.raises(DuplicateAccountError):
            await store.create_account("aDa", password_hash="x")
