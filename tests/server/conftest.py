"""Fixtures shared by the server tests: a private database of each kind, a store on it, and
a live server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer

from gamut_server.storage import Store
from tests.server.live import live_server, server_config
from tests.server.storage_backends import Backend, drop_schema, new_schema_name, postgres_url


@pytest.fixture(params=["sqlite", "postgresql"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    """An empty database of each kind, private to the test."""
    if request.param == "sqlite":
        yield Backend("sqlite", f"sqlite:///{tmp_path / 'gamut.sqlite3'}")
        return
    url = await postgres_url()
    schema = new_schema_name()
    try:
        yield Backend("postgresql", url, schema)
    finally:
        await drop_schema(url, schema)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    """An open store on the test's database."""
    async with await backend.open() as opened:
        yield opened


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[TestServer]:
    """A live server on SQLite without the AI (a test module may define its own)."""
    async with live_server(server_config(tmp_path)) as running:
        yield running
