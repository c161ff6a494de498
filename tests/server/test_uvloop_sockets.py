"""The server's sockets under uvloop, the event loop ``gamut serve`` runs by default.

uvloop's transports have asyncio's methods but are not instances of asyncio's transport
classes, so nothing may depend on those classes: a client dropped for not reading must
have its TCP connection cut there too.
"""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import pytest

from gamut_server import keys
from tests.server.live import WAIT, close_all, connect, live_server, server_config

uvloop = pytest.importorskip("uvloop")


def test_a_client_dropped_for_not_reading_is_cut_under_uvloop(tmp_path: Path) -> None:
    async def scenario() -> None:
        config = server_config(tmp_path, queue_size=8, send_timeout=0.5)
        async with live_server(config) as server:
            stuck = await connect(server, "stuck")
            conn = next(iter(server.app[keys.HUB].connections.values()))
            for _ in range(20):
                conn.send_text(json.dumps({"type": "pong"}))
            assert conn.closed
            frame = await stuck.ws.receive(timeout=WAIT)
            while frame.type == aiohttp.WSMsgType.TEXT:
                frame = await stuck.ws.receive(timeout=WAIT)
            assert frame.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR)
            healthy = await connect(server, "ok")
            await healthy.send({"type": "ping", "id": 1})
            assert (await healthy.expect("pong"))["reply_to"] == 1
            await close_all([stuck, healthy])

    uvloop.run(scenario())
