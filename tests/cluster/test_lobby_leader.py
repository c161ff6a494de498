"""The lobby outlives the node leading it: three nodes, open seeks and a challenge made
by players on every node, the leader killed with SIGKILL. The seek and the challenge of
players on the surviving nodes are listed again under the same ids and can be accepted;
the seek of the player who was on the dead node is gone; a seek sent to the dead leader
before the other nodes knew it was dead is made by the next leader."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.nodes import health, leading, three_nodes
from tests.faults.story import report
from tests.server.live import Client, close_all

pytestmark = pytest.mark.timeout(240)

LEADER_WAIT_S = 60.0
"""Seconds the test waits for another node to lead the lobby (a lease is 4 s)."""

VIEW_WAIT_S = 30.0
"""Seconds a client waits to see the lobby it expects once a new node leads."""

SEEK = {"type": "seek", "game": "crusher", "options": {"n": 3}}

LOBBY_MESSAGES = ("lobby_snapshot", "seek_created", "seek_removed")
"""The messages that change the seeks a client sees."""


async def test_open_seeks_and_challenges_outlive_the_lobby_leader(tmp_path: Path) -> None:
    async with three_nodes(tmp_path) as nodes:
        await _seeks_through_the_leaders_death(nodes)


async def _seeks_through_the_leaders_death(nodes: list[Any]) -> None:
    leader = await leading(nodes)
    first, second = [served for served in nodes if served is not leader]
    ada = await _client(first, "ada")
    bob = await _client(second, "bob")
    cyd = await _client(leader, "cyd")
    clients = [ada, bob, cyd]
    try:
        open_seek = await _seek(ada, "open")
        await _visible(bob, {open_seek})
        challenge = await _seek(bob, "challenge", opponent={"kind": "player", "name": "ada"})
        gone = await _seek(cyd, "gone")
        await _visible(ada, {open_seek, challenge, gone})

        old = health(first)["cluster"]["leader"]
        os.kill(leader.process.pid, signal.SIGKILL)
        killed = time.monotonic()
        # sent to the dead leader before the others know it is dead: sent again to the next
        await ada.send({**SEEK, "id": "late", "game": "connect5", "options": {"size": 9}})
        leader.process.wait()
        await _wait_for_new_leader(first, old)
        await ada.expect("lobby_snapshot")
        await bob.expect("lobby_snapshot")
        late = await ada.expect("seek_created", "error", reply_to="late", timeout=LEADER_WAIT_S)
        assert late["type"] == "seek_created", late
        late_seek = str(late["seek"]["seek_id"])
        await _visible(ada, {open_seek, challenge, late_seek})
        report("the lobby leader killed: its seeks listed again", time.monotonic() - killed)
        await _visible(bob, {open_seek, challenge, late_seek})
        dan = await _client(second, "dan")
        clients.append(dan)
        await _visible(dan, {open_seek, late_seek})

        await dan.send({"type": "accept_seek", "id": "a", "seek_id": open_seek})
        first_room = (await dan.expect("room_snapshot", reply_to="a"))["room_id"]
        assert (await ada.expect("room_snapshot"))["room_id"] == first_room
        await ada.send({"type": "accept_seek", "id": "c", "seek_id": challenge})
        second_room = (await ada.expect("room_snapshot", reply_to="c"))["room_id"]
        assert (await bob.expect("room_snapshot"))["room_id"] == second_room
    finally:
        await close_all(clients)


async def _client(served: Any, name: str) -> Client:
    """A client of one node, welcomed as ``name``, following the lobby."""
    client = await Client.connect(served.ws_url)
    await client.hello(name)
    await client.expect("lobby_snapshot")
    return client


async def _seek(client: Client, ask: str, **terms: Any) -> str:
    """``client`` opens a seek: its id."""
    await client.send({**SEEK, "id": ask, **terms})
    created = await client.expect("seek_created", "error", reply_to=ask)
    assert created["type"] == "seek_created", created
    return str(created["seek"]["seek_id"])


async def _visible(client: Client, expected: set[str]) -> None:
    """Wait until the seeks ``client`` sees (its latest snapshot, then what was created
    and removed since) are ``expected``."""
    client.drain_unread()
    seen: set[str] = set()
    for message in client.received:
        seen = _after(seen, message)
    try:
        async with asyncio.timeout(VIEW_WAIT_S):
            while seen != expected:
                seen = _after(seen, await client.next())
    except TimeoutError:
        lobby = [m for m in client.received if m["type"] in LOBBY_MESSAGES]
        raise AssertionError(f"{client.name} sees {seen}, not {expected}: {lobby}") from None


def _after(seen: set[str], message: dict[str, Any]) -> set[str]:
    """The seeks a client sees once ``message`` is read."""
    match message["type"]:
        case "lobby_snapshot":
            return {seek["seek_id"] for seek in message["seeks"]}
        case "seek_created":
            return seen | {message["seek"]["seek_id"]}
        case "seek_removed":
            return seen - {message["seek_id"]}
    return seen


async def _wait_for_new_leader(served: Any, old: int) -> None:
    """Wait until ``served`` reports a leader other than ``old``."""
    async with asyncio.timeout(LEADER_WAIT_S):
        while health(served)["cluster"]["leader"] in (old, None):
            await asyncio.sleep(0.2)
