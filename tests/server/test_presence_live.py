"""Who is online, on a live server over real sockets: version 2 clients see arrivals,
games and departures; a version 1 client sees the lobby exactly as before."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestServer

from gamut_protocol import PRESENCE_VERSION
from tests.server.live import (
    Client,
    Message,
    close_all,
    connect,
    live_server,
    server_config,
    start_game,
)

V2 = {"protocol": PRESENCE_VERSION}
"""The hello fields of a client speaking protocol version 2."""


@pytest_asyncio.fixture
async def server(tmp_path: Path) -> AsyncIterator[TestServer]:
    async with live_server(server_config(tmp_path)) as running:
        yield running


def welcome_of(client: Client) -> Message:
    """The welcome ``client`` received."""
    return next(message for message in client.received if message["type"] == "welcome")


def entry(name: str, kind: str = "human", *playing: str) -> dict[str, object]:
    """One player of the online list, as JSON."""
    return {"name": name, "kind": kind, "playing": list(playing)}


@pytest.mark.timeout(60)
async def test_presence_follows_arrivals_games_and_departures(server: TestServer) -> None:
    ada = await connect(server, "ada", **V2)
    olga = await connect(server, "olga")
    bob = await connect(server, "bob", kind="bot", **V2)
    try:
        assert welcome_of(ada)["protocol"] == PRESENCE_VERSION
        assert welcome_of(olga)["protocol"] == 1
        first = await ada.expect("lobby_snapshot")
        assert (first["online"], first["present"]) == (1, [entry("ada")])
        assert "present" not in await olga.expect("lobby_snapshot")
        listed = (await bob.expect("lobby_snapshot"))["present"]
        assert listed == [entry("ada"), entry("olga"), entry("bob", "bot")]

        arrivals = [await ada.expect("presence"), await ada.expect("presence")]
        assert [m["player"]["name"] for m in arrivals] == ["olga", "bob"]
        assert arrivals[1] == {
            "type": "presence",
            "player": entry("bob", "bot"),
            "left": False,
            "online": 3,
        }

        room_id, _, _ = await start_game(ada, bob)
        started = [await ada.expect("presence"), await ada.expect("presence")]
        assert [m["player"] for m in started] == [
            entry("ada", "human", room_id),
            entry("bob", "bot", room_id),
        ]

        await bob.send({"type": "resign", "room_id": room_id})
        await ada.expect("game_over", room_id=room_id)
        ended = [await ada.expect("presence"), await ada.expect("presence")]
        assert sorted(m["player"]["name"] for m in ended) == ["ada", "bob"]
        assert all(m["player"]["playing"] == [] for m in ended)

        await bob.close()
        gone = await ada.expect("presence", left=True)
        assert (gone["player"], gone["online"]) == (entry("bob", "bot"), 2)

        await olga.send({"type": "ping", "id": "last"})
        await olga.expect("pong", reply_to="last")
        assert not any(message["type"] == "presence" for message in olga.received)
    finally:
        await close_all((ada, olga, bob))
