"""Three nodes on one Redis and one PostgreSQL: a game whose players and spectator are on
different nodes, lobby chat across nodes, and the end of the node that owns the room
(killed with SIGKILL, or stopped with SIGTERM) while a move is on its way: the game comes
back on another node, every accepted move intact, the move sent in the gap played, and
finishes."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.nodes import get_json, health, three_nodes
from tests.server.live import WHITE_WINS, Client, close_all, play, start_game

FISCHER = {"kind": "fischer", "initial_ms": 600_000, "increment_ms": 2_000}
"""Ten minutes each and two seconds a move: no clock falls in this test."""

STOP_WAIT_S = 60.0
"""Seconds a stopped node may take to end (its own steps are each bounded by seconds)."""

BEFORE_KILL = 6
"""Moves played before the owner of the room is stopped: then it is ada's turn, and
she moves at once, while her room has no node."""


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["killed", "stopped"])
async def test_a_game_across_three_nodes_survives_the_end_of_its_node(
    tmp_path: Path, stop: signal.Signals
) -> None:
    async with three_nodes(tmp_path) as nodes:
        await _play_through_a_node_death(nodes, stop)


async def _play_through_a_node_death(nodes: list[Any], stop: signal.Signals) -> None:
    """The whole story, on three running nodes."""
    first, second, third = nodes
    ada = await _client(first, "ada")
    bob = await _client(second, "bob")
    cyd = await _client(third, "cyd")
    clients = [ada, bob, cyd]
    try:
        await _chat_across_nodes(ada, bob, cyd)
        room_id, _, _ = await start_game(ada, bob, time_control=FISCHER)
        assert health(second)["rooms"] == 1, "the room opens on the node of the player who accepted"
        await cyd.send({"type": "join", "id": "j", "room_id": room_id, "role": "spectator"})
        await cyd.expect("room_snapshot", room_id=room_id)
        seen = []
        for ply, text in enumerate(WHITE_WINS[:BEFORE_KILL]):
            made = await play((ada, bob)[ply % 2], room_id, text, ply)
            seen.append(made)
            await cyd.expect("move_made", room_id=room_id, ply=ply)
        await cyd.send({"type": "chat", "room_id": room_id, "text": "nice opening"})
        for player in (ada, bob):
            await player.expect("chat_line", room_id=room_id, text="nice opening")

        os.kill(second.process.pid, stop)
        move = {"type": "move", "id": "gap", "room_id": room_id, "ply": BEFORE_KILL}
        await ada.send({**move, "move": WHITE_WINS[BEFORE_KILL]})
        # off the event loop, so the other nodes' messages are read meanwhile
        await asyncio.to_thread(second.process.wait, STOP_WAIT_S)
        bob = await _reconnect(third, bob, room_id, seq=seen[-1]["seq"])
        clients[1] = bob
        resumed = await ada.expect("room_snapshot", room_id=room_id)
        _check_snapshot(resumed, seen[-1])
        killed_at = len(seen)
        seen.append(await ada.expect("move_made", room_id=room_id, reply_to="gap"))
        watched = await cyd.expect("room_snapshot", room_id=room_id)
        if len(watched["moves"]) == BEFORE_KILL:
            await cyd.expect("move_made", room_id=room_id, ply=BEFORE_KILL)
        for ply in range(BEFORE_KILL + 1, len(WHITE_WINS)):
            made = await play((ada, bob)[ply % 2], room_id, WHITE_WINS[ply], ply)
            seen.append(made)
            await cyd.expect("move_made", room_id=room_id, ply=ply)
        _check_waiting_clock(seen[killed_at - 1], seen[killed_at])
        over = await cyd.expect("game_over", room_id=room_id)
        assert (over["result"]["winner"], over["result"]["reason"]) == (0, "network")
        _check_record(get_json(first, f"/api/games/{room_id}"), seen)
    finally:
        await close_all(clients)


async def _client(served: Any, name: str, **hello: Any) -> Client:
    """A client of one node, welcomed as ``name`` and following the lobby."""
    client = await Client.connect(served.ws_url)
    await client.hello(name, **hello)
    await client.expect("lobby_snapshot")
    return client


async def _chat_across_nodes(ada: Client, bob: Client, cyd: Client) -> None:
    """A lobby chat line said on one node is heard on the two others."""
    await ada.send({"type": "chat", "id": "c", "text": "hello from node one"})
    for listener in (bob, cyd):
        line = await listener.expect("chat_line", text="hello from node one")
        assert line["author"] == "ada"


async def _reconnect(served: Any, old: Client, room_id: str, *, seq: int) -> Client:
    """``old``'s player comes back on another node with its token and resumes the room."""
    with contextlib.suppress(ConnectionError):
        while True:
            await old.next()
    await old.close()
    assert old.name is not None
    client = await Client.connect(served.ws_url)
    welcome = await client.hello(old.name, token=old.token)
    assert room_id in welcome["rooms"]
    # without an id, as the clients resume: nothing answers it by name, yet it must not
    # be lost when it reaches a node that is not yet known to be dead
    await client.send({"type": "resume", "room_id": room_id, "after_seq": seq})
    await client.expect("room_snapshot", "player_connected", room_id=room_id)
    return client


def _check_snapshot(resumed: dict[str, Any], last: dict[str, Any]) -> None:
    """The snapshot a surviving node's player gets from the room's new node holds every
    move so far: those before the stop, and the move sent meanwhile if the stopping node
    still played it. If it did not, the clock of the player not to move is exactly as
    stored."""
    played = [move["move"] for move in resumed["moves"]]
    assert played in (list(WHITE_WINS[:BEFORE_KILL]), list(WHITE_WINS[: BEFORE_KILL + 1]))
    assert resumed["seq"] >= last["seq"]
    if len(played) == BEFORE_KILL:
        waiting = last["side"]
        clocks = resumed["clocks"]["remaining_ms"]
        assert clocks[waiting] == last["clocks"]["remaining_ms"][waiting]


def _check_waiting_clock(before: dict[str, Any], after: dict[str, Any]) -> None:
    """The clock of the player who was waiting while the node died did not run: the
    first move after the takeover shows it exactly as the last move before."""
    waiting = before["side"]
    assert after["side"] != waiting
    assert after["clocks"]["remaining_ms"][waiting] == before["clocks"]["remaining_ms"][waiting]


def _check_record(record: dict[str, Any], seen: list[dict[str, Any]]) -> None:
    """The stored game holds every accepted move, with the clocks the players were told."""
    assert [move["move"] for move in record["moves"]] == list(WHITE_WINS)
    told = [made["clocks"]["remaining_ms"] for made in seen]
    stored = [move["clocks"] for move in record["moves"]]
    assert stored == told
    for side in (0, 1):
        mine = [clocks[side] for ply, clocks in enumerate(told) if ply % 2 == side]
        gained = [later - earlier for earlier, later in itertools.pairwise(mine)]
        assert all(gain <= FISCHER["increment_ms"] for gain in gained), mine
