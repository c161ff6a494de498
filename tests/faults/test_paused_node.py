"""Three nodes; the node holding a room is paused (SIGSTOP) past its lease while its
player's move waits in its socket, and woken (SIGCONT) once another node has taken the
room over and the same player, on another device, has played that ply there: the paused
node's move is never stored (the game's epoch refuses it), the record holds what every
player was told, the paused node goes on serving, and the game finishes."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.nodes import client, health, node, until
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
from tests.server.live import Client, Message, close_all, start_game

BEFORE_PAUSE = 3
"""Moves played before the pause: then it is Black's (bob's) turn."""

STALE = "50"
"""The move bob's paused device sends for that ply (legal then, never stored)."""


@pytest.fixture(scope="module")
def postgres() -> Iterator[PrivatePostgres]:
    """One private PostgreSQL for the module."""
    with private_postgres() as server:
        yield server


async def test_a_paused_node_cannot_store_a_move_in_a_room_it_lost(
    tmp_path: Path, postgres: PrivatePostgres
) -> None:
    with private_redis(tmp_path / "redis") as redis, contextlib.ExitStack() as stack:
        nodes = [
            stack.enter_context(node(postgres.url, redis.url, "paused", name, tmp_path))
            for name in ("n1", "n2", "n3")
        ]
        first, paused, third = nodes
        clients: list[Client] = []
        try:
            ada, bob = await client(first, "ada"), await client(paused, "bob")
            clients += [ada, bob]
            room_id = (await start_game(ada, bob, time_control=FISCHER))[0]
            assert (await health(paused))["rooms"] == 1
            moves = whole_game()
            told = [
                await move_until_stored((ada, bob)[ply % 2], room_id, ply, moves[ply])
                for ply in range(BEFORE_PAUSE)
            ]
            os.kill(paused.process.pid, signal.SIGSTOP)
            stopped = time.monotonic()
            stale = {"type": "move", "id": "stale", "room_id": room_id, "ply": BEFORE_PAUSE}
            await bob.send({**stale, "move": STALE})

            async def taken_over() -> bool:
                counts = [int((await health(n))["rooms"]) for n in (first, third)]
                return sum(counts) == 1

            await until(taken_over, "another node to take the room over")
            report("SIGSTOP to the room taken over", time.monotonic() - stopped)
            again = await Client.connect(third.ws_url)
            clients.append(again)
            await again.hello("bob", token=bob.token)
            await again.send({"type": "join", "id": "j", "room_id": room_id, "role": "player"})
            await again.expect("room_snapshot", reply_to="j", timeout=RECOVERY_WAIT)
            players = (ada, again)
            told.append(await move_until_stored(again, room_id, BEFORE_PAUSE, moves[BEFORE_PAUSE]))
            os.kill(paused.process.pid, signal.SIGCONT)
            woken = time.monotonic()
            await _stale_move_refused(bob, room_id)
            report(
                "SIGCONT to the stale move refused and its device resumed", time.monotonic() - woken
            )
            for ply in range(BEFORE_PAUSE + 1, len(moves)):
                told.append(await move_until_stored(players[ply % 2], room_id, ply, moves[ply]))
            check_record(await get_json(first.http_url, f"/api/games/{room_id}"), told, moves)
            assert paused.process.poll() is None, "the paused node stopped"
            assert (await health(paused))["rooms"] == 0
        finally:
            await close_all(clients)


async def _stale_move_refused(bob: Client, room_id: str) -> None:
    """The move bob sent to the paused node is answered by an error, never played; bob's
    device there is brought up to date by a snapshot holding the move played meanwhile."""
    answer: Message = await bob.expect(
        "error", "move_made", reply_to="stale", timeout=RECOVERY_WAIT
    )
    assert answer["type"] == "error", answer
    snapshot = await bob.expect("room_snapshot", room_id=room_id, timeout=RECOVERY_WAIT)
    assert STALE not in [move["move"] for move in snapshot["moves"]]
