"""The databases the tests run against: a SQLite file, and on PostgreSQL a schema (storage
tests) or a database (servers, which take only a URL) of the test's own.

PostgreSQL is looked for at 127.0.0.1:5432, database ``test``, as user ``root`` then
``postgres`` (or at ``GAMUT_TEST_POSTGRES_URL``). Each test gets a schema or database
of its own, named after the process and a random suffix and dropped afterwards, so
parallel runs and reruns never see each other's rows. Without a server the PostgreSQL tests are
skipped, except when ``CI`` is ``true``: there they fail.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import NoReturn

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from gamut_server.storage import Store, database_url

POSTGRES_CANDIDATES = (
    "postgresql://root@127.0.0.1:5432/test",
    "postgresql://postgres@127.0.0.1:5432/test",
)


@dataclass(frozen=True)
class Backend:
    """Where one test's store lives; open it as often as the test needs (restarts)."""

    name: str
    url: str
    schema: str | None = None

    async def open(self) -> Store:
        """A new store over the same database."""
        return await Store.open(self.url, schema=self.schema)


_probed: list[tuple[str | None, str]] = []


def unavailable(reason: str) -> NoReturn:
    """Skip the test for a missing database, or fail it when running in CI."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true requires PostgreSQL)")
    pytest.skip(reason)


def _engine(url: str) -> AsyncEngine:
    return create_async_engine(database_url(url), connect_args={"timeout": 5})


async def _can_connect(url: str) -> str | None:
    """``None`` if ``url`` accepts a connection, else why not."""
    engine = _engine(url)
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    except Exception as error:  # any failure means "not usable here"
        return f"{type(error).__name__}: {error}"
    finally:
        await engine.dispose()
    return None


async def _probe_postgres() -> tuple[str | None, str]:
    """The first candidate URL that connects, or ``None`` and why none did."""
    override = os.environ.get("GAMUT_TEST_POSTGRES_URL")
    problems = []
    for url in (override,) if override else POSTGRES_CANDIDATES:
        problem = await _can_connect(url)
        if problem is None:
            return url, ""
        problems.append(f"{url}: {problem}")
    return None, "; ".join(problems)


async def postgres_url() -> str:
    """A reachable PostgreSQL URL (probed once per run), or skip/fail the test."""
    if not _probed:
        _probed.append(await _probe_postgres())
    url, problems = _probed[0]
    if url is None:
        unavailable(f"PostgreSQL is not reachable: {problems}")
    return url


def new_schema_name() -> str:
    """A schema name no other run uses."""
    return f"gamut_test_{os.getpid()}_{secrets.token_hex(4)}"


async def drop_schema(url: str, schema: str) -> None:
    """Remove a test schema and everything in it."""
    engine = _engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    finally:
        await engine.dispose()


@asynccontextmanager
async def postgres_database() -> AsyncIterator[str]:
    """The URL of a new PostgreSQL database of the test's own, dropped afterwards.

    For servers, which take a URL and nothing else; the storage tests use schemas.
    """
    url = await postgres_url()
    name = new_schema_name()
    admin = _engine(url).execution_options(isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield make_url(url).set(database=name).render_as_string(hide_password=False)
        finally:
            async with admin.connect() as conn:
                await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        await admin.dispose()
