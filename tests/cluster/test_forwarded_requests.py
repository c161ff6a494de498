"""Requests forwarded to a room's node that dies before reading them are answered.

Three nodes; ada plays bob in two games whose rooms live on bob's node, one finished.
That node is killed and, before the other nodes know it is dead, ada resigns the running
game without an ``id`` and says something in the finished one with an ``id``: the
resignation reaches the running game once another node has taken it over, and the
line, whose room comes back nowhere (its game is over), is answered with an error
saying the game's server went away."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.nodes import get_json, health, three_nodes
from tests.faults.story import report
from tests.server.live import Client, close_all, play, start_game

pytestmark = pytest.mark.timeout(240)

TAKEOVER_WAIT_S = 60.0
"""Seconds the test waits for the answers (a lease is 4 s)."""

CLOCK = {"kind": "per_move", "move_ms": 120_000}


async def test_requests_sent_to_a_dying_node_are_answered(tmp_path: Path) -> None:
    async with three_nodes(tmp_path) as nodes:
        await _requests_through_a_node_death(nodes)


async def _requests_through_a_node_death(nodes: list[Any]) -> None:
    first, second, third = nodes
    ada = await _client(first, "ada")
    bob = await _client(second, "bob")
    try:
        running, _, _ = await start_game(ada, bob, "connect5", time_control=CLOCK)
        finished, _, _ = await start_game(ada, bob, "connect5", time_control=CLOCK)
        assert health(second)["rooms"] == 2, "the rooms open on the node of the player who accepted"
        await play(ada, running, "e5", 0)
        await bob.send({"type": "resign", "id": "r", "room_id": finished})
        await ada.expect("game_over", room_id=finished)
        await ada.send({"type": "chat", "id": "hi", "room_id": finished, "text": "well played"})
        await bob.expect("chat_line", room_id=finished, text="well played")

        os.kill(second.process.pid, signal.SIGKILL)
        killed = time.monotonic()
        await ada.send({"type": "resign", "room_id": running})
        await ada.send({"type": "chat", "id": "late", "room_id": finished, "text": "again?"})
        second.process.wait()
        async with asyncio.timeout(TAKEOVER_WAIT_S):
            over = await ada.expect("game_over", room_id=running, timeout=TAKEOVER_WAIT_S)
            report("a room's node killed: a resignation sent meanwhile played", _since(killed))
            late = await ada.expect("error", "chat_line", reply_to="late", timeout=TAKEOVER_WAIT_S)
            report("a room's node killed: a line to its ended game answered", _since(killed))
        assert (over["result"]["winner"], over["result"]["reason"]) == (1, "resign")
        assert late["type"] == "error", late
        assert late["code"] == "unavailable"
        assert all(word in late["message"] for word in ("stopped", "again")), late["message"]
        record = get_json(third, f"/api/games/{running}")
        assert [move["move"] for move in record["moves"]] == ["e5"], "nothing played twice"
        assert record["result"]["reason"] == "resign"
    finally:
        await close_all([ada, bob])


async def _client(served: Any, name: str) -> Client:
    """A client of one node, welcomed as ``name``."""
    client = await Client.connect(served.ws_url)
    await client.hello(name, lobby=False)
    return client


def _since(start: float) -> float:
    """Seconds since ``start`` (``time.monotonic``)."""
    return time.monotonic() - start
