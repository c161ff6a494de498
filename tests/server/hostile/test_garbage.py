"""Garbage costs its sender: a flood of frames that are no message, from several
connections, is cut off with a clear error, and a bystander game keeps moving."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from tests.server.live import (
    WHITE_WINS,
    Client,
    close_all,
    connect,
    live_server,
    play,
    read_until_closed,
    server_config,
    start_game,
)

FLOODERS = 10
FRAMES = 3_000


async def flood(client: Client) -> None:
    """Send garbage until the server closes the socket."""
    with contextlib.suppress(ConnectionError, RuntimeError):
        for number in range(FRAMES):
            await client.send_raw(f"not json {number} {{")
            if client.ws.closed:
                return
            await asyncio.sleep(0)


async def test_a_garbage_flood_is_cut_off_and_a_game_goes_on(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path)) as server:
        ada, bob = await connect(server, "ada"), await connect(server, "bob")
        room_id, _, _ = await start_game(ada, bob)
        flooders = [
            await connect(server, f"noise{n}") if n % 2 else await connect(server)
            for n in range(FLOODERS)
        ]
        sending = [asyncio.create_task(flood(client)) for client in flooders]
        for ply, move in enumerate(WHITE_WINS):
            await play((ada, bob)[ply % 2], room_id, move, ply)
        over = await bob.expect("game_over", room_id=room_id)
        assert over["result"]["winner"] == 0
        for client in flooders:
            answers = await read_until_closed(client)
            errors = [answer for answer in answers if answer["type"] == "error"]
            assert errors[-1]["fatal"] is True
            assert errors[-1]["code"] == "rate_limited"
            assert "too many refused messages" in errors[-1]["message"]
            assert len(errors) <= 20  # only a few refusals are answered
        await asyncio.gather(*sending)
        await close_all([ada, bob, *flooders])
