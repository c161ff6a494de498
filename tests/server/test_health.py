"""``/health`` over real sockets: the counts it reports follow the connections."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.test_utils import TestServer

from tests.server.live import WAIT, close_all, connect, live_server, server_config


async def health(server: TestServer) -> dict[str, Any]:
    """The server's ``/health`` body."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(server.make_url("/health")) as response,
    ):
        body: dict[str, Any] = await response.json()
        return body


async def counts_become(server: TestServer, connections: int, players: int) -> dict[str, Any]:
    """``/health`` once it reports ``connections`` and ``players`` (or after ``WAIT`` s)."""
    async with asyncio.timeout(WAIT):
        while True:
            body = await health(server)
            if (body["connections"], body["players"]) == (connections, players):
                return body
            await asyncio.sleep(0.01)


async def test_health_counts_connections_and_the_players_who_said_hello(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path)) as server:
        ada, bob = await connect(server, "ada"), await connect(server, "bob")
        silent = await connect(server)
        await counts_become(server, connections=2, players=2)  # a socket counts once it speaks
        await silent.send({"type": "ping", "id": "p"})
        body = await counts_become(server, connections=3, players=2)
        assert body["status"] == "ok"
        await bob.close()
        await counts_become(server, connections=2, players=1)
        await silent.close()
        await counts_become(server, connections=1, players=1)
        await close_all([ada])
