"""The client connection against a real server: requests, and a player whose link drops
mid-game missing nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gamut_client.connection import Connection, connect
from gamut_client.link import Backoff, Disconnected, Incoming, Reconnected
from gamut_protocol import (
    AcceptSeek,
    GameList,
    ListGames,
    Move,
    MoveMade,
    RoomSnapshot,
    Seek,
    SeekCreated,
)
from tests.e2e.live import gamut_server
from tests.e2e.proxy import Proxy

pytestmark = pytest.mark.timeout(60)

WAIT = 10.0
"""Seconds to wait for one message (never reached when all is well)."""


async def next_of(connection: Connection, kind: type | tuple[type, ...]) -> Incoming:
    """The next item of ``connection``'s stream of type ``kind``, skipping others."""
    while True:
        item = await asyncio.wait_for(connection.receive(), WAIT)
        if isinstance(item, kind):
            return item


async def test_requests_and_pings_are_answered(tmp_path: Path) -> None:
    async with gamut_server(tmp_path) as url, connect(url, "ada", heartbeat=0.1) as conn:
        games = await conn.request(ListGames(), timeout=WAIT)
        assert isinstance(games, GameList)
        # Hex and Connect Four come from the test-only packages registered in the
        # gamut.games group.
        assert {game.name for game in games.games} == {
            "network",
            "connect5",
            "loa",
            "crusher",
            "connect4",
            "hex",
        }
        assert await conn.ping(timeout=WAIT) >= 0


async def test_a_dropped_player_resumes_and_sees_every_move_once(
    tmp_path: Path, server_db: str
) -> None:
    fast = Backoff(initial=0.05, jitter=0.0, attempts=40)
    async with (
        gamut_server(tmp_path, db=server_db) as url,
        Proxy(url).running() as proxy,
        connect(proxy.url, "ada", backoff=fast) as ada,
        connect(url, "bob") as bob,
    ):
        await ada.send(Seek(game="network", side=0))
        created = await next_of(bob, SeekCreated)
        assert isinstance(created, SeekCreated)
        await bob.send(AcceptSeek(seek_id=created.seek.seek_id))
        snapshot = await next_of(ada, RoomSnapshot)
        assert isinstance(snapshot, RoomSnapshot)
        room = snapshot.room_id
        await ada.send(Move(room_id=room, move="01", ply=0))
        await next_of(ada, MoveMade)

        proxy.cut()
        assert isinstance(await next_of(ada, Disconnected), Disconnected)
        await bob.send(Move(room_id=room, move="10", ply=1))
        reconnected = await next_of(ada, Reconnected)
        assert isinstance(reconnected, Reconnected)
        assert room in reconnected.resumed

        missed = await next_of(ada, MoveMade)
        assert isinstance(missed, MoveMade)
        assert (missed.ply, missed.move) == (1, "10")
        await ada.send(Move(room_id=room, move="21", ply=2))
        mine = await next_of(ada, MoveMade)
        assert isinstance(mine, MoveMade)
        assert (mine.ply, mine.move) == (2, "21")
        assert ada.reconnections == 1
        assert ada.rooms[room] == mine.seq
