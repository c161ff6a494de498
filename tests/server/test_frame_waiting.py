"""The reader lets other clients run between two frames of one client only when the
second is already waiting (else its next receive waits anyway): whether a frame waits
is read from the WebSocket layer's queue, over a real socket."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from aiohttp import ClientSession, web
from aiohttp.test_utils import TestServer

from gamut_server.edge.session import frame_waiting


async def until(check: Callable[[], bool]) -> None:
    """Let the loop run until ``check()`` holds (the socket's frames come in meanwhile)."""
    while not check():
        await asyncio.sleep(0.01)


async def test_a_frame_read_and_not_yet_received_is_seen_waiting() -> None:
    seen: list[bool] = []
    sent = asyncio.Event()

    async def handler(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        seen.append(frame_waiting(ws))
        await ws.send_str("ready")
        await sent.wait()
        await asyncio.wait_for(until(lambda: frame_waiting(ws)), 30)
        await ws.receive()
        await asyncio.wait_for(until(lambda: frame_waiting(ws)), 30)
        seen.append(frame_waiting(ws))
        await ws.receive()
        seen.append(frame_waiting(ws))
        await ws.send_str("done")
        await ws.receive()
        return ws

    app = web.Application()
    app.router.add_get("/ws", handler)
    async with (
        TestServer(app) as server,
        ClientSession() as session,
        session.ws_connect(server.make_url("/ws")) as client,
    ):
        assert (await client.receive_str()) == "ready"
        await client.send_str("one")
        await client.send_str("two")
        sent.set()
        assert (await client.receive_str()) == "done"
    assert seen == [False, True, False]
