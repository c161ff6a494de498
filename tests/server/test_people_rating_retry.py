"""A rated game whose rating the database cannot take when the game ends is rated once
it can, on the running server: both players are told, and their profiles show it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from gamut_server.keys import STORE
from gamut_server.people import live as people_live
from gamut_server.storage import StorageUnavailableError
from tests.server.live import close_all, live_server, server_config, start_game
from tests.server.people import get
from tests.server.test_people_rated import BLITZ, FIVE, play_out, signed_in

REFUSALS = 3
"""How many times the database refuses the rating before it takes it."""


@pytest.fixture
async def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[TestServer]:
    """A live server whose store refuses the first ratings as a locked database does,
    and tries again at once."""
    monkeypatch.setattr(people_live, "RETRY_DELAYS_S", (0.01,) * REFUSALS, raising=False)
    async with live_server(server_config(tmp_path)) as running:
        store = running.app[STORE]
        rate = store.rate_people_game
        tries: list[int] = []

        async def refusing(*arguments: Any) -> Any:
            tries.append(1)
            if len(tries) <= REFUSALS:
                raise StorageUnavailableError("database is locked")
            return await rate(*arguments)

        monkeypatch.setattr(store, "rate_people_game", refusing)
        yield running


async def test_a_rating_refused_at_the_games_end_is_made_once_the_database_takes_it(
    server: TestServer,
) -> None:
    ada = await signed_in(server, "ada")
    bob = await signed_in(server, "bob")
    try:
        room_id, _, _ = await start_game(ada, bob, **FIVE, time_control=BLITZ, rated=True)
        await play_out(ada, bob, room_id)
        rated = [await client.expect("game_rated", room_id=room_id) for client in (ada, bob)]
        assert rated[0] == rated[1]
        assert rated[0]["players"][0]["change"] > 0
    finally:
        await close_all((ada, bob))
    [rating] = (await get(server, "/api/players/ada")).body["ratings"]
    assert rating["games"] == 1, "rated once"
