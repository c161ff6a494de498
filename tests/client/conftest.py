"""Fixtures of the terminal client's pilot tests: one real server per test module, and a
relay in front of it for each test (which the tests slow down or cut)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestServer

from tests.client.relay import Relay
from tests.client.tui_pilot import pilot_server, relay_to


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[TestServer]:
    """A server with one AI worker, shared by the module's tests."""
    async with pilot_server(tmp_path_factory.mktemp("tui-server")) as running:
        yield running


@pytest_asyncio.fixture(loop_scope="module")
async def relay(server: TestServer) -> AsyncIterator[Relay]:
    """A relay in front of the module's server."""
    async with relay_to(server) as running:
        yield running
