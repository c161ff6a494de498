"""A dead node's room that cannot be read back while the database fails (its file held
locked by another process) is handed back to the dead node's name and taken over at the
next try, once the database answers: never left without an owner."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from gamut_server.cluster.directory import Directory
from gamut_server.cluster.keys import Keys
from gamut_server.cluster.takeover import Takeover
from gamut_server.core.identity import Names
from gamut_server.storage import Store
from tests.faults.services import private_redis
from tests.faults.sqlite_faults import locked
from tests.server.crash_writer import SPEC
from tests.server.test_room_resume import driver_of


@pytest.fixture
async def client(tmp_path: Path) -> AsyncIterator[aioredis.Redis]:
    """A client of a private Redis."""
    with private_redis(tmp_path / "redis") as redis:
        connection = aioredis.from_url(redis.url, decode_responses=True)
        yield connection
        await connection.aclose()


async def test_a_room_not_read_back_is_tried_again(tmp_path: Path, client: aioredis.Redis) -> None:
    db = tmp_path / "games.sqlite3"
    keys = Keys("retry")
    async with await Store.open(str(db)) as store:
        await store.create_game(dataclasses.replace(SPEC, game_id="g1"))
        await Directory(client, keys, 1).claim("g1")
        directory = Directory(client, keys, 2)
        driver = driver_of(store, tmp_path)
        takeover = Takeover(driver, directory, Names(), "n2")
        with locked(db):
            assert await takeover.dead_node(1) == ([], False)
        assert await directory.owner("g1") == 1, "the room is the dead node's again"
        assert "g1" not in driver.rooms
        assert await takeover.dead_node(1) == (["g1"], True)
        assert await directory.owner("g1") == 2
        assert driver.rooms["g1"].epoch == 1
        assert (await store.game("g1")).info.status == "running"
