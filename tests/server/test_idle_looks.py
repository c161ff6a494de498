"""The ladder's pairing and the tournaments' director stay asleep with nothing to do (a
casual game's end is nothing to the director), and wake for what gives them something: a
player entering a queue, a tournament created, entered or started.

Each check lets ten of their ticks pass on the event loop: a timer they had set for a
tick would fire before the test's own, set later for longer, so a look counted then is
one a timer made."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from gamut_server.ladder_live.http import LADDER
from gamut_server.tournaments_live.http import TOURNAMENTS
from tests.server.live import close_all, connect, live_server, server_config, start_game
from tests.server.test_ladder_server import POOLS, join, paired, register
from tests.server.test_ladder_server import bot as ladder_bot
from tests.server.test_tournaments import bot, create, enter

TICK_S = 0.02
"""The ladder's and the director's tick in these tests."""


@pytest.fixture
async def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[TestServer]:
    """A live server whose ladder and director would look every 20 ms."""
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps({**POOLS, "tick_ms": int(TICK_S * 1000)}))
    monkeypatch.setenv("GAMUT_LADDER", str(path))
    monkeypatch.setenv("GAMUT_TOURNAMENT_TICK_MS", str(int(TICK_S * 1000)))
    async with live_server(server_config(tmp_path)) as running:
        yield running


class Looks:
    """Counts the calls of an object's coroutine method."""

    def __init__(self, owner: Any, name: str) -> None:
        """Count ``owner.name``'s calls from now on."""
        self.count = 0
        method: Callable[[], Awaitable[Any]] = getattr(owner, name)

        async def counted() -> Any:
            self.count += 1
            return await method()

        setattr(owner, name, counted)

    async def after_ten_ticks(self) -> int:
        """The count once ten ticks have passed."""
        await asyncio.sleep(10 * TICK_S)
        return self.count

    async def until_more_than(self, count: int) -> None:
        """Wait until the count passes ``count``."""
        async with asyncio.timeout(60):
            while self.count <= count:
                await asyncio.sleep(TICK_S)


async def a_casual_game_played(server: TestServer) -> None:
    """Two guests play a game to its end (one resigns)."""
    cyd, dan = await connect(server, "cyd"), await connect(server, "dan")
    room_id, _, _ = await start_game(cyd, dan)
    await cyd.send({"type": "resign", "room_id": room_id})
    for client in (cyd, dan):
        await client.expect("game_over", room_id=room_id)
    await close_all([cyd, dan])


async def test_the_ladder_pairs_only_while_someone_waits(server: TestServer) -> None:
    looks = Looks(server.app[LADDER].queues, "tick")
    assert await looks.after_ten_ticks() == 0, "the ladder paired with nobody waiting"
    clients = [await ladder_bot(server, name, await register(server, name)) for name in "ab"]
    assert (await join(clients[0]))["member"] is True
    await looks.until_more_than(0)
    assert (await join(clients[1]))["member"] is True
    await paired(*clients)
    quiet = await looks.after_ten_ticks()  # at most the tick that found the queue empty
    assert await looks.after_ten_ticks() == quiet, "the ladder paired on with nobody waiting"
    await close_all(clients)


async def test_the_director_looks_when_woken_or_at_the_next_start(server: TestServer) -> None:
    service = server.app[TOURNAMENTS]
    looks = Looks(service, "tick")
    quiet = await looks.after_ten_ticks()  # at most the first look, at start
    assert await looks.after_ten_ticks() == quiet, "the director looked with no tournament"
    await a_casual_game_played(server)
    assert await looks.after_ten_ticks() == quiet, "the director looked at a casual game's end"
    (ada, token), (bob, _) = await bot(server, "ada"), await bot(server, "bob")
    made = await create(server, token, "ada", minutes=600, starts_in=600)
    await looks.until_more_than(quiet)
    quiet = looks.count
    assert await looks.after_ten_ticks() == quiet, "the director looked before the start"
    for client in (ada, bob):
        assert (await enter(client, made["id"]))["joined"] is True
    await looks.until_more_than(quiet)
    service.wall = lambda: datetime.now(UTC) + timedelta(hours=2)
    for client in (ada, bob):
        assert (await client.expect("tournament_status", timeout=30))["status"] == "running"
    await close_all([ada, bob])
