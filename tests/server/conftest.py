"""Fixtures shared by the server tests: a private database of each kind and a store on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from gamut_server.storage import Store
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
