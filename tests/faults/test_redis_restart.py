"""Two nodes on a Redis of their own that is killed and started again, empty, a few
seconds later: both nodes keep serving, a game whose players are on its node goes on
during the outage, a game across the two nodes goes on once Redis is back, and both
finish with every move announced stored once."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamut_server.cluster.names import NAMES_DOWN
from tests.e2e.served import Served
from tests.faults.nodes import client, health, node, redis_is, until
from tests.faults.services import PrivatePostgres, PrivateRedis, private_postgres, private_redis
from tests.faults.story import (
    FISCHER,
    check_record,
    get_json,
    move_until_stored,
    report,
    whole_game,
)
from tests.server.live import Client, Message, close_all, start_game

OUTAGE_S = float(os.environ.get("GAMUT_FAULTS_REDIS_OUTAGE_S", "3"))
"""How long Redis stays down (3 s; ``GAMUT_FAULTS_REDIS_OUTAGE_S`` for longer)."""


@pytest.fixture(scope="module")
def postgres() -> Iterator[PrivatePostgres]:
    """One private PostgreSQL for the module."""
    with private_postgres() as server:
        yield server


async def test_a_redis_restart_leaves_every_node_serving(
    tmp_path: Path, postgres: PrivatePostgres
) -> None:
    with private_redis(tmp_path / "redis") as redis, contextlib.ExitStack() as stack:
        first, second = (
            stack.enter_context(node(postgres.url, redis.url, "faults", name, tmp_path))
            for name in ("n1", "n2")
        )
        await until(lambda: redis_is([first, second], "ok"), "both nodes to join")
        clients: list[Client] = []
        try:
            ada, bob = await client(first, "ada"), await client(second, "bob")
            clients += [ada, bob]
            across = (await start_game(ada, bob, time_control=FISCHER))[0]
            cyd, dan = await client(first, "cyd"), await client(first, "dan")
            clients += [cyd, dan]
            local = (await start_game(cyd, dan, time_control=FISCHER))[0]
            await _outage(redis, [first, second], (cyd, dan), local, (ada, bob), across)
            for served in (first, second):
                assert served.process.poll() is None, "a node stopped"
                assert (await health(served))["cluster"]["redis"] == "ok"
        finally:
            await close_all(clients)


async def _outage(
    redis: PrivateRedis,
    nodes: list[Served],
    local_players: tuple[Client, Client],
    local: str,
    players: tuple[Client, Client],
    across: str,
) -> None:
    """Both games are played around a Redis outage; both finish as announced."""
    moves = whole_game()
    told_local: list[Message] = []
    told_across: list[Message] = []
    for ply in range(2):
        told_local.append(await move_until_stored(local_players[ply % 2], local, ply, moves[ply]))
        told_across.append(await move_until_stored(players[ply % 2], across, ply, moves[ply]))
    killed = time.monotonic()
    redis.kill()
    await until(lambda: redis_is(nodes, "unreachable"), "the nodes to miss Redis")
    await _hello_refused_in_a_sentence(nodes[1])
    for ply in range(2, 4):
        # the local game's players and room are on one node: it goes on without Redis
        told_local.append(await move_until_stored(local_players[ply % 2], local, ply, moves[ply]))
    await asyncio.sleep(max(0.0, OUTAGE_S - (time.monotonic() - killed)))
    redis.start()
    back = time.monotonic()
    await until(lambda: redis_is(nodes, "ok"), "the nodes to reach Redis again")
    report("Redis started again to every node reaching it", time.monotonic() - back)
    for ply in range(2, len(moves)):
        told_across.append(await move_until_stored(players[ply % 2], across, ply, moves[ply]))
        if ply == 2:
            report("Redis started again to a move across nodes stored", time.monotonic() - back)
    for ply in range(4, len(moves)):
        told_local.append(await move_until_stored(local_players[ply % 2], local, ply, moves[ply]))
    base = nodes[0].http_url
    check_record(await get_json(base, f"/api/games/{local}"), told_local, moves)
    check_record(await get_json(base, f"/api/games/{across}"), told_across, moves)


async def _hello_refused_in_a_sentence(served: Served) -> None:
    """A person saying hello while Redis is down is told to try again in a moment."""
    newcomer = await Client.connect(served.ws_url)
    try:
        await newcomer.send({"type": "hello", "id": "h", "name": "eve"})
        answer = await newcomer.expect("welcome", "error", reply_to="h")
        assert (answer["type"], answer["code"]) == ("error", "unavailable"), answer
        assert answer["message"] == NAMES_DOWN
    finally:
        await newcomer.close()
