"""What three nodes share: player names, the lobby, the ladder's queues; and the lobby
surviving the death of the node that leads it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.nodes import (
    cluster_database,
    forget_cluster,
    get_json,
    health,
    new_cluster_name,
    node,
    post_json,
)
from tests.server.live import Client, close_all

pytestmark = pytest.mark.timeout(240)

POOL = "crusher-quick"

LEADER_WAIT_S = 60.0
"""Seconds the test waits for another node to lead the lobby (a lease is 4 s)."""


@pytest.fixture
def ladder_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """One quick Crusher pool without AI anchors, pairing every 50 ms, for every node."""
    path = tmp_path / "ladder.json"
    pool = {
        "pool": POOL,
        "game": "crusher",
        "options": {"n": 3},
        "time_control": {"kind": "per_move", "move_ms": 30_000},
        "anchors": [],
    }
    path.write_text(json.dumps({"pools": [pool], "tick_ms": 50, "grace_ms": 5_000, "seed": 1}))
    monkeypatch.setenv("GAMUT_LADDER", str(path))
    return path


async def test_names_lobby_and_ladder_are_shared_and_outlive_the_lobby_leader(
    tmp_path: Path, ladder_file: Path
) -> None:
    async with cluster_database() as db:
        cluster = new_cluster_name()
        try:
            with contextlib.ExitStack() as stack:
                nodes = [
                    stack.enter_context(node(db, cluster, "n1", tmp_path)),
                    stack.enter_context(node(db, cluster, "n2", tmp_path)),
                    stack.enter_context(node(db, cluster, "n3", tmp_path, "--ai-workers", "1")),
                ]
                await _names_are_held_across_nodes(nodes)
                await _the_ladder_pairs_players_of_two_nodes(nodes)
                await _the_ai_plays_on_the_players_node(nodes)
                await _the_lobby_outlives_its_leader(nodes)
        finally:
            forget_cluster(cluster)


async def _client(served: Any, name: str, **hello: Any) -> Client:
    """A client of one node, welcomed as ``name``."""
    client = await Client.connect(served.ws_url)
    await client.hello(name, **hello)
    return client


async def _refused(served: Any, name: str, **hello: Any) -> dict[str, Any]:
    """The error answering a ``hello`` as ``name`` on ``served``."""
    client = await Client.connect(served.ws_url)
    try:
        await client.send({"type": "hello", "name": name, **hello})
        answer = await client.expect("welcome", "error")
    finally:
        await client.close()
    assert answer["type"] == "error", answer
    return answer


async def _names_are_held_across_nodes(nodes: list[Any]) -> None:
    """A guest's name, held on one node, is refused on the others without its token,
    whatever its case; a person's session opened on one node signs in on another."""
    first, second, third = nodes
    ada = await _client(first, "ada")
    try:
        assert (await _refused(second, "ada"))["code"] == "name_taken"
        assert (await _refused(second, "ADA"))["code"] == "name_taken"
        assert (await _refused(third, "ada", token="not-the-token"))["code"] == "bad_token"
        status, answer = post_json(third, "/api/accounts", {"name": "ada"})
        assert (status, answer["error"]) == (409, "name_taken"), answer
        again = await _client(second, "ada", token=ada.token)
        await again.close()
    finally:
        await ada.close()
    body = {"name": "Bea_K", "password": "a long passphrase", "session": "token"}
    status, answer = post_json(first, "/api/signup", body)
    assert status == 201, answer
    bea = await _client(third, "bea_k", token=answer["token"], protocol=5)
    try:
        assert (bea.received[0]["name"], bea.received[0]["guest"]) == ("Bea_K", False)
        assert (await _refused(second, "BEA_K"))["code"] == "name_taken"
    finally:
        await bea.close()


async def _the_ladder_pairs_players_of_two_nodes(nodes: list[Any]) -> None:
    """Two bots signed in on two different nodes join the pool and are paired, once."""
    first, second, third = nodes
    tokens = {}
    for name in ("botone", "bottwo"):
        status, answer = post_json(first, "/api/accounts", {"name": name})
        assert status == 201, answer
        tokens[name] = answer["token"]
    one = await _client(second, "botone", token=tokens["botone"], kind="bot", lobby=False)
    two = await _client(third, "bottwo", token=tokens["bottwo"], kind="bot", lobby=False)
    try:
        for bot in (one, two):
            await bot.send({"type": "join_ladder", "id": "j", "pool": POOL})
            joined = await bot.expect("ladder_status", "error", reply_to="j")
            assert joined["type"] == "ladder_status", joined
        rooms = [await bot.expect("room_snapshot") for bot in (one, two)]
        assert rooms[0]["room_id"] == rooms[1]["room_id"]
        seats = {seat["name"] for seat in rooms[0]["players"]}
        assert seats == {"botone", "bottwo"}
        live = get_json(second, "/api/rooms")
        assert [room["room_id"] for room in live if room["rated"]] == [rooms[0]["room_id"]]
        for served in nodes:
            listed = {pool["pool"]: pool for pool in get_json(served, "/api/ladder/pools")}
            assert listed[POOL]["games_started"] == 1, "every node shows the one set of queues"
    finally:
        await close_all([one, two])


async def _the_ai_plays_on_the_players_node(nodes: list[Any]) -> None:
    """A player on a node that is not leading the lobby plays the AI: the game lives on
    the player's node, whose AI answers."""
    third = nodes[2]
    eve = await _client(third, "eve")
    try:
        seek = {"type": "seek", "id": "ai", "game": "crusher", "options": {"n": 3}, "side": 0}
        await eve.send({**seek, "opponent": {"kind": "ai", "level": 1}})
        snapshot = await eve.expect("room_snapshot", reply_to="ai")
        room_id = snapshot["room_id"]
        assert health(third)["rooms"] == 1, "the game lives on the node of its player"
        move = snapshot["legal_moves"][0]
        await eve.send({"type": "move", "room_id": room_id, "move": move, "ply": 0})
        answer = await eve.expect("move_made", room_id=room_id, ply=1)
        assert answer["side"] == 1
    finally:
        await eve.close()


async def _the_lobby_outlives_its_leader(nodes: list[Any]) -> None:
    """The node leading the lobby is killed: another leads it, and players on the two
    others see each other's seeks and chat."""
    first, second, third = nodes
    leader = health(first)["cluster"]["leader"]
    assert leader == health(first)["cluster"]["node_number"], "the first node leads"
    cyd = await _client(second, "cyd")
    dan = await _client(third, "dan")
    try:
        os.kill(first.process.pid, signal.SIGKILL)
        first.process.wait()
        await _wait_for_new_leader(second, leader)
        await cyd.expect("lobby_snapshot")
        await cyd.send({"type": "seek", "id": "s", "game": "crusher", "options": {"n": 3}})
        seek = (await dan.expect("seek_created"))["seek"]
        assert seek["author"] == "cyd"
        await dan.send({"type": "accept_seek", "id": "a", "seek_id": seek["seek_id"]})
        await dan.expect("room_snapshot", reply_to="a")
        await cyd.expect("room_snapshot")
        await dan.send({"type": "chat", "id": "c", "text": "still here"})
        assert (await cyd.expect("chat_line", text="still here"))["author"] == "dan"
    finally:
        await close_all([cyd, dan])


async def _wait_for_new_leader(served: Any, old: int) -> None:
    """Wait until ``served`` reports a leader other than ``old``."""
    async with asyncio.timeout(LEADER_WAIT_S):
        while health(served)["cluster"]["leader"] in (old, None):
            await asyncio.sleep(0.2)
