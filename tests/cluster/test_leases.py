"""The cluster's parts in Redis, against the real Redis: room ownership and the owners a
node keeps, name bindings, node leases and the lobby's lead."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest
import redis.asyncio as aioredis
from aiohttp import web

from gamut_protocol import Chat, Resign
from gamut_server.cluster.bus import Bus
from gamut_server.cluster.directory import Directory
from gamut_server.cluster.held import HeldOps
from gamut_server.cluster.ids import first_connection_id
from gamut_server.cluster.keys import Keys
from gamut_server.cluster.membership import Membership
from gamut_server.cluster.names import SharedNames
from gamut_server.cluster.routes import RoomRoutes
from gamut_server.cluster.wire import ToRoom
from gamut_server.config import ClusterSettings
from gamut_server.core.identity import NameRefusedError, TokenDigest
from gamut_server.core.ops import Gone, Handle
from gamut_server.edge.connection import Connection
from gamut_server.rooms import Who
from tests.cluster.nodes import forget_cluster, new_cluster_name, redis_url

EXPIRY_WAIT_S = 10.0
"""Seconds a test waits for a short lease to lapse (it lapses after 0.3 s)."""


@pytest.fixture
async def keys() -> AsyncIterator[Keys]:
    """The keys of a cluster of the test's own, deleted afterwards."""
    name = new_cluster_name()
    yield Keys(name)
    forget_cluster(name)


@pytest.fixture
async def client() -> AsyncIterator[aioredis.Redis]:
    """A client of the test Redis."""
    connection = aioredis.from_url(redis_url(), decode_responses=True)
    yield connection
    await connection.aclose()


async def test_a_dead_nodes_room_is_taken_over_by_one_node_only(
    client: aioredis.Redis, keys: Keys
) -> None:
    dead, first, second = (Directory(client, keys, number) for number in (1, 2, 3))
    await dead.claim("room1")
    with pytest.raises(RuntimeError, match="owner already"):
        await first.claim("room1")
    taken = await asyncio.gather(first.take("room1", 1), second.take("room1", 1))
    assert sorted(taken) == [False, True]
    winner = 2 if taken[0] else 3
    assert await first.owner("room1") == winner
    assert "room1" in await first.rooms_of(winner)
    assert not await first.take("room1", 1), "the room is no longer the dead node's"


async def test_an_owner_that_released_its_room_leaves_no_trace(
    client: aioredis.Redis, keys: Keys
) -> None:
    owner, other = Directory(client, keys, 1), Directory(client, keys, 2)
    await owner.claim("room1")
    await other.release("room1")
    assert await owner.owner("room1") == 1, "only the owner may release its room"
    await owner.release("room1")
    assert await owner.owner("room1") is None
    assert await owner.rooms_of(1) == set()


async def test_a_guest_name_is_bound_to_one_token_on_every_node(
    client: aioredis.Redis, keys: Keys
) -> None:
    one, two = SharedNames(client, keys), SharedNames(client, keys)
    digest = TokenDigest.of("ada-token")
    assert await one.bind_guest("ada", digest)
    assert not await two.bind_guest("ada", TokenDigest.of("another")), "bound already"
    with pytest.raises(NameRefusedError) as no_token:
        await two.guest_digest("ada", None)
    assert no_token.value.code == "name_taken"
    with pytest.raises(NameRefusedError) as wrong:
        await two.guest_digest("ada", "not-it")
    assert wrong.value.code == "bad_token"
    found = await two.guest_digest("ada", "ada-token")
    assert found is not None
    assert found.matches("ada-token")
    with pytest.raises(NameRefusedError):
        await two.bind_account("ada")
    assert await two.guest_bound("ada")


async def test_an_account_name_is_refused_to_guests(client: aioredis.Redis, keys: Keys) -> None:
    names = SharedNames(client, keys)
    await names.bind_account("bob")
    await names.bind_account("bob")
    with pytest.raises(NameRefusedError) as refused:
        await names.guest_digest("bob", "any")
    assert refused.value.code == "name_taken"
    assert not await names.guest_bound("bob")


async def test_the_lead_passes_when_its_holder_stops_renewing(
    client: aioredis.Redis, keys: Keys
) -> None:
    settings = ClusterSettings(redis=redis_url(), node="n", name=keys.prefix, lease_s=0.3)
    first, second = Membership(client, keys, settings), Membership(client, keys, settings)
    await first.join("a")
    await second.join("b")
    assert (await first.beat()).became_leader
    beat = await second.beat()
    assert (beat.leader, beat.became_leader) == (first.number, False)
    async with asyncio.timeout(EXPIRY_WAIT_S):
        while True:
            beat = await second.beat()
            if beat.became_leader:
                break
            await asyncio.sleep(0.05)
    assert beat.leader == second.number
    assert first.number in beat.dead
    await first.beat()
    assert first.lost, "a node whose lease lapsed knows it must stop"
    assert not first.leads


async def test_a_closing_bus_does_not_wait_forever_for_its_subscription(
    client: aioredis.Redis, keys: Keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    bus = Bus(client, keys, 1)
    await bus.start(lambda envelope: None)

    async def never_closes() -> None:
        await asyncio.sleep(3_600)

    # a subscription's close can wait forever on its socket (redis-py issue 3941)
    monkeypatch.setattr(bus._pubsub, "aclose", never_closes)
    async with asyncio.timeout(EXPIRY_WAIT_S):
        await bus.close()


@contextlib.asynccontextmanager
async def listening(client: aioredis.Redis, keys: Keys, number: int) -> AsyncIterator[list[Any]]:
    """The bus of node ``number``, started: the envelopes it receives, as they come."""
    received: list[Any] = []
    bus = Bus(client, keys, number)
    await bus.start(received.append)
    try:
        yield received
    finally:
        await bus.close()


async def room_ops_received(received: list[Any], count: int) -> list[ToRoom]:
    """The first ``count`` room operations in ``received``, once they have come."""
    async with asyncio.timeout(EXPIRY_WAIT_S):
        while len(ops := [e for e in received if isinstance(e, ToRoom)]) < count:
            await asyncio.sleep(0.01)
    return ops[:count]


GONE = Gone(Who(conn=first_connection_id(1), name="ada", kind="human"))
"""An operation of a connection of node 1 that expects no answer."""


@pytest.fixture
async def sender(client: aioredis.Redis, keys: Keys) -> AsyncIterator[Bus]:
    """The bus of node 1, once node 2 (alive) has claimed ``room1``."""
    await Directory(client, keys, 2).claim("room1")
    await client.set(keys.alive(2), "1", px=60_000)
    bus = Bus(client, keys, 1)
    await bus.start(lambda envelope: None)
    yield bus
    await bus.close()


def routes_of(client: aioredis.Redis, keys: Keys, bus: Bus, held: HeldOps) -> RoomRoutes:
    """The room routes of node 1, with no connection of its own."""
    return RoomRoutes(1, Directory(client, keys, 1), bus, held, set(), lambda conn: None)


async def test_a_rooms_owner_is_read_once_and_forgotten_when_it_says_not_here(
    client: aioredis.Redis, keys: Keys, sender: Bus
) -> None:
    routes = routes_of(client, keys, sender, HeldOps(lambda send: None))
    async with listening(client, keys, 2) as received:
        assert await routes.room_elsewhere("room1", GONE)
        await Directory(client, keys, 2).release("room1")
        assert await routes.room_elsewhere("room1", GONE), "the owner read first is kept"
        ops = await room_ops_received(received, 2)
    assert [op.room_id for op in ops] == ["room1", "room1"]
    routes.not_there("room1", 2)
    assert not await routes.room_elsewhere("room1", GONE), "read again: nobody owns it now"


async def test_a_dead_owner_is_forgotten_and_its_rooms_operations_wait(
    client: aioredis.Redis, keys: Keys, sender: Bus
) -> None:
    held = HeldOps(lambda send: None)
    routes = routes_of(client, keys, sender, held)
    assert await routes.room_elsewhere("room1", GONE)
    await client.delete(keys.alive(2))
    routes.node_dead(2)
    assert await routes.room_elsewhere("room1", GONE)
    assert held.release("room1") == [GONE], "held until another node takes the room over"


async def test_a_request_without_an_id_waits_until_the_rooms_node_has_performed_it(
    client: aioredis.Redis, keys: Keys, sender: Bus
) -> None:
    conn = Connection(cast(web.WebSocketResponse, None), None, queue_size=8, send_timeout=1.0)
    held = HeldOps(lambda send: None)
    routes = RoomRoutes(1, Directory(client, keys, 1), sender, held, set(), lambda _: conn)
    ada = Who(conn=first_connection_id(1), name="ada")
    resign = Handle(ada, Resign(room_id="room1"))
    async with listening(client, keys, 2) as received:
        assert await routes.room_elsewhere("room1", resign)
        assert await routes.room_elsewhere("room1", Handle(ada, Chat(room_id="room1", text="hi")))
        ops = await room_ops_received(received, 2)
    ticket = ops[0].ticket
    assert ticket is not None
    assert ops[1].ticket is None
    assert conn.in_flight == {"room1": [resign.message]}, "a line without an id is not kept"
    routes.done(ticket)
    assert conn.in_flight == {}
    assert routes.lost_with(2) == {"room1"}, "the node the room's requests went to"
    assert routes.lost_with(2) == set()
