"""The lobby cannot be flooded off the air: 500 seeks from 100 connections leave every
subscriber connected and up to date, even one that stops reading, and finished rooms
leave the live lobby."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from gamut_server import keys
from gamut_server.edge.addresses import AddressRules
from gamut_server.rooms.limits import Rate
from tests.server.hostile.raw import NonReader
from tests.server.live import Client, close_all, connect, live_server, server_config

SEEKERS = 100
SEEKS_EACH = 5
SUBSCRIBERS = 20
MANY = Rate(capacity=10_000, per_second=10_000)
CROWD = AddressRules(connections=1_000, unwelcomed=1_000, opening=MANY, seeks=MANY)


class LobbyView:
    """A subscriber's picture of the lobby's seeks and rooms, from what it was sent."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.seeks: set[str] = set()
        self.rooms: set[str] = set()

    async def catch_up(self, until: Any) -> None:
        """Apply the lobby messages received until ``until(self)`` holds."""
        while not until(self):
            self.apply(await self.client.next())

    def apply(self, message: dict[str, Any]) -> None:
        """Apply one lobby message."""
        kind = message["type"]
        if kind == "lobby_snapshot":
            self.seeks = {seek["seek_id"] for seek in message["seeks"]}
            self.rooms = {room["room_id"] for room in message["rooms"]}
        elif kind == "seek_created":
            self.seeks.add(message["seek"]["seek_id"])
        elif kind == "seek_removed":
            self.seeks.discard(message["seek_id"])
        elif kind == "room_updated":
            self.rooms.add(message["room"]["room_id"])
        elif kind == "room_removed":
            self.rooms.discard(message["room_id"])


async def seek_five(client: Client) -> list[str]:
    """Open :data:`SEEKS_EACH` seeks; their ids."""
    for number in range(SEEKS_EACH):
        await client.send({"type": "seek", "id": number, "game": "network"})
    answers = [await client.expect("seek_created", reply_to=n) for n in range(SEEKS_EACH)]
    return [answer["seek"]["seek_id"] for answer in answers]


async def test_a_seek_flood_leaves_every_subscriber_connected_and_current(
    tmp_path: Path,
) -> None:
    config = server_config(tmp_path, addresses=CROWD, queue_size=32)
    async with live_server(config) as server:
        hub = server.app[keys.HUB]
        views = [
            LobbyView(await connect(server, f"fan{n}", protocol=2)) for n in range(SUBSCRIBERS)
        ]
        stalled = await NonReader.connect("127.0.0.1", server.port or 0)
        await stalled.send({"type": "hello", "name": "stalled", "protocol": 2})
        seekers = await asyncio.gather(*(connect(server, f"seeker{n}") for n in range(SEEKERS)))
        ids = {seek for batch in await asyncio.gather(*map(seek_five, seekers)) for seek in batch}
        assert len(ids) == SEEKERS * SEEKS_EACH
        for view in views:
            await view.catch_up(lambda view: view.seeks == ids)
        closed = [conn.name for conn in hub.connections.values() if conn.closed]
        assert closed == []
        assert "stalled" in {conn.name for conn in hub.connections.values()}

        first, second = seekers[0], seekers[1]
        await second.send({"type": "accept_seek", "seek_id": min(ids), "id": "take"})
        room_id = (await second.expect("room_snapshot"))["room_id"]
        await second.send({"type": "resign", "room_id": room_id})
        await first.expect("game_over", room_id=room_id)
        for view in views:
            await view.catch_up(
                lambda view: min(ids) not in view.seeks and room_id not in view.rooms
            )
        late = LobbyView(await connect(server, "late"))
        await late.catch_up(lambda view: bool(view.seeks))
        assert room_id not in late.rooms
        stalled.close()
        await close_all([*(view.client for view in views), *seekers, late.client])
