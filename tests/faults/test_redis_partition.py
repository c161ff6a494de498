"""Two nodes, the second reaching Redis through a proxy that cuts its traffic for 10 s
(a partition): the first node counts it dead and takes its room over; the cut-off node
keeps its sockets, refuses its player's move in a sentence (the game's epoch refuses its
write: the room is no longer its own), and once the partition heals its player resumes
the game on the first node, which finishes with every move announced stored once."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamut_server.cluster.node import BUS_DOWN
from tests.e2e.proxy import Proxy
from tests.e2e.served import Served
from tests.faults.nodes import client, health, node, redis_is, until
from tests.faults.services import PrivatePostgres, private_postgres, private_redis
from tests.faults.story import (
    FISCHER,
    RECOVERY_WAIT,
    check_record,
    get_json,
    move_until_stored,
    report,
    whole_game,
)
from tests.server.live import Client, close_all, start_game

PARTITION_S = 10.0
"""How long the second node's Redis traffic is cut."""

BEFORE_CUT = 3
"""Moves played before the cut: then it is Black's (bob's, on the cut-off node) turn."""


@pytest.fixture(scope="module")
def postgres() -> Iterator[PrivatePostgres]:
    """One private PostgreSQL for the module."""
    with private_postgres() as server:
        yield server


async def test_a_node_cut_off_from_redis_loses_its_room_but_no_move(
    tmp_path: Path, postgres: PrivatePostgres
) -> None:
    with private_redis(tmp_path / "redis") as redis:
        proxy = Proxy(redis.url)
        async with proxy.running():
            port = proxy.url.removeprefix("ws://").split("/")[0]
            with contextlib.ExitStack() as stack:
                first = stack.enter_context(node(postgres.url, redis.url, "cut", "n1", tmp_path))
                cut_url = f"redis://{port}/0"
                # started in a thread: the proxy runs on this loop while the node starts
                cut_node = node(postgres.url, cut_url, "cut", "n2", tmp_path)
                second = await asyncio.to_thread(stack.enter_context, cut_node)
                await until(lambda: redis_is([first, second], "ok"), "both nodes to join")
                await _partition(proxy, first, second)


async def _partition(proxy: Proxy, first: Served, second: Served) -> None:
    """The game around the partition."""
    clients: list[Client] = []
    try:
        ada, bob = await client(first, "ada"), await client(second, "bob")
        clients += [ada, bob]
        room_id = (await start_game(ada, bob, time_control=FISCHER))[0]
        moves = whole_game()
        told = [
            await move_until_stored((ada, bob)[ply % 2], room_id, ply, moves[ply])
            for ply in range(BEFORE_CUT)
        ]
        proxy.refusing = True
        proxy.cut()
        cut_at = time.monotonic()

        async def taken_over() -> bool:
            return int((await health(first))["rooms"]) == 1

        await until(taken_over, "the first node to take the room over")
        report("Redis traffic cut to the room taken over", time.monotonic() - cut_at)
        await ada.expect("room_snapshot", room_id=room_id, timeout=RECOVERY_WAIT)
        move = {"type": "move", "id": "cut", "room_id": room_id, "ply": BEFORE_CUT}
        await bob.send({**move, "move": moves[BEFORE_CUT]})
        refusal = await bob.expect("error", "move_made", reply_to="cut", timeout=RECOVERY_WAIT)
        assert (refusal["type"], refusal["code"], refusal["message"]) == (
            "error",
            "unavailable",
            BUS_DOWN,
        )
        assert (await get_json(first.http_url, f"/api/games/{room_id}"))["plies"] == BEFORE_CUT
        await asyncio.sleep(max(0.0, PARTITION_S - (time.monotonic() - cut_at)))
        proxy.refusing = False
        healed = time.monotonic()
        await until(lambda: redis_is([second], "ok"), "the second node to reach Redis again")
        told.append(await move_until_stored(bob, room_id, BEFORE_CUT, moves[BEFORE_CUT]))
        report("partition healed to the cut-off player's move stored", time.monotonic() - healed)
        for ply in range(BEFORE_CUT + 1, len(moves)):
            told.append(await move_until_stored((ada, bob)[ply % 2], room_id, ply, moves[ply]))
        check_record(await get_json(first.http_url, f"/api/games/{room_id}"), told, moves)
        assert second.process.poll() is None, "the cut-off node stopped"
        assert int((await health(second))["rooms"]) == 0
    finally:
        await close_all(clients)
