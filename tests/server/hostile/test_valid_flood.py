"""Well-formed messages over the budget: held back at first, cut off when it lasts."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from gamut_server.rooms.limits import Rate
from tests.server.live import Client, connect, live_server, read_until_closed, server_config


async def ping_flood(client: Client) -> None:
    """Send well-formed pings as fast as the socket takes them, until it closes."""
    with contextlib.suppress(ConnectionError, RuntimeError):
        while not client.ws.closed:
            await client.send({"type": "ping"})
            await asyncio.sleep(0)


async def test_a_connection_keeping_its_budget_empty_is_closed(tmp_path: Path) -> None:
    config = server_config(tmp_path, messages=Rate(10, 50), flood_s=1.0)
    async with live_server(config) as server:
        flooder = await connect(server, "flooder")
        sending = asyncio.create_task(ping_flood(flooder))
        try:
            messages = await read_until_closed(flooder)
        finally:
            sending.cancel()
            await flooder.close()
        fatal = [m for m in messages if m["type"] == "error"]
        assert fatal
        assert fatal[-1]["code"] == "rate_limited"
        assert fatal[-1]["fatal"]
        assert "for too long without a pause" in fatal[-1]["message"]
        assert any(m["type"] == "pong" for m in messages)  # held back first, not refused


async def test_a_sender_that_pauses_is_only_held_back(tmp_path: Path) -> None:
    config = server_config(tmp_path, messages=Rate(5, 50), flood_s=1.0)
    async with live_server(config) as server:
        bot = await connect(server, "bot")
        for _ in range(6):  # bursts of twice the budget, held back, then a pause
            for number in range(10):
                await bot.send({"type": "ping", "id": number})
            for number in range(10):
                await bot.expect("pong", reply_to=number)
            await asyncio.sleep(0.2)  # the pause: the budget refills (50 a second, 5 at most)
        await bot.send({"type": "ping", "id": "last"})
        assert (await bot.expect("pong"))["reply_to"] == "last"
        await bot.close()
