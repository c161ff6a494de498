"""A client that stops reading is dropped, and a dropped client is gone at once: its TCP
connection closed on the server's side, its slot and its name freed."""

from __future__ import annotations

import asyncio
from pathlib import Path

from gamut_server import keys
from gamut_server.core.hub import Hub
from gamut_server.edge.connection import Connection
from gamut_server.rooms.limits import Rate
from tests.server.hostile.raw import NonReader, server_side_established
from tests.server.live import close_all, connect, live_server, server_config, start_game

POLL = 0.01
"""Seconds between looks at the server's state while waiting for it to change."""


async def test_a_non_reading_spectator_is_cut_off_at_once(tmp_path: Path) -> None:
    flood = Rate(capacity=100_000, per_second=100_000)
    config = server_config(tmp_path, queue_size=8, messages=flood, chat=flood)
    async with live_server(config) as server:
        hub = server.app[keys.HUB]
        white, black = await connect(server, "ada"), await connect(server, "bob")
        room_id, _, _ = await start_game(white, black, "connect5", options={"size": 19})
        stuck = await NonReader.connect("127.0.0.1", server.port or 0)
        await stuck.send({"type": "hello", "name": "stuck", "lobby": False})
        conn = await connection_named(hub, "stuck")
        for line in range(2_000):  # each join is answered by a full snapshot, never read
            if conn.close_reason is not None:
                break
            await stuck.send({"type": "join", "id": line, "room_id": room_id})
            await white.send({"type": "chat", "room_id": room_id, "text": f"line {line} " * 20})
            await white.expect("chat_line", room_id=room_id)
        assert "too slow" in (conn.close_reason or "")
        while server_side_established(server.port or 0, stuck.port):
            await asyncio.sleep(POLL)
        while conn.id in hub.connections:
            await asyncio.sleep(POLL)
        assert hub.stats()["connections"] == 2
        again = await connect(server, "stuck")  # the name is free: no token asked
        assert again.name == "stuck"
        stuck.close()
        await close_all([white, black, again])


async def connection_named(hub: Hub, name: str) -> Connection:
    """The server's connection welcomed as ``name``, once there is one."""
    while True:
        for conn in hub.connections.values():
            if conn.name == name:
                return conn
        await asyncio.sleep(POLL)
