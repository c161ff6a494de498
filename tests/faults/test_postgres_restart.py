"""A server on a PostgreSQL of its own that stops or restarts (``pg_ctl -m fast``) while
games are played: a move made while it is down is refused in a sentence once the store
has tried long enough, the others are told, and the same move is played once the
database is back; a restart in the middle of moves costs no move; every game finishes
with every move announced stored once, in order."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer

from tests.faults.services import PrivatePostgres, private_postgres
from tests.faults.story import (
    FISCHER,
    check_record,
    get_json,
    move_until_stored,
    play_seen,
    refused_for_storage,
    report,
    whole_game,
)
from tests.server.live import (
    Client,
    Message,
    close_all,
    connect,
    live_server,
    server_config,
    start_game,
)

GAMES = 4
"""Games played at once through the restart."""


@pytest.fixture(scope="module")
def postgres() -> Iterator[PrivatePostgres]:
    """One private PostgreSQL for the module's tests."""
    with private_postgres() as server:
        yield server


@pytest.fixture
async def server(tmp_path: Path, postgres: PrivatePostgres) -> AsyncIterator[TestServer]:
    """A server on the private PostgreSQL."""
    async with live_server(server_config(tmp_path, db=postgres.url)) as served:
        yield served


async def test_a_move_made_while_the_database_is_down_is_played_once_it_is_back(
    server: TestServer, postgres: PrivatePostgres
) -> None:
    moves = whole_game()
    ada, bob, cyd = [await connect(server, name) for name in ("ada", "bob", "cyd")]
    try:
        room_id, _, _ = await start_game(ada, bob, time_control=FISCHER)
        await cyd.send({"type": "join", "id": "j", "room_id": room_id, "role": "spectator"})
        await cyd.expect("room_snapshot", room_id=room_id)
        told = [await play_seen(ada, [bob, cyd], room_id, moves[0], 0)]
        await asyncio.to_thread(postgres.stop)
        try:
            move = {"type": "move", "id": "lost", "room_id": room_id, "ply": 1, "move": moves[1]}
            sent = time.monotonic()
            await bob.send(move)
            await refused_for_storage(bob, [ada, cyd], room_id, "lost")
            report("a move sent to a stopped PostgreSQL until refused", time.monotonic() - sent)
        finally:
            await asyncio.to_thread(postgres.start)
        back = time.monotonic()
        told.append(await move_until_stored(bob, room_id, 1, moves[1]))
        report("PostgreSQL started again to the move stored", time.monotonic() - back)
        players = (ada, bob)
        for ply in range(2, len(moves)):
            others = [players[1 - ply % 2], cyd]
            told.append(await play_seen(players[ply % 2], others, room_id, moves[ply], ply))
        await cyd.expect("game_over", room_id=room_id)
        base = str(server.make_url("")).rstrip("/")
        check_record(await get_json(base, f"/api/games/{room_id}"), told, moves)
    finally:
        await close_all([ada, bob, cyd])


async def test_a_restart_in_the_middle_of_games_costs_no_move(
    server: TestServer, postgres: PrivatePostgres
) -> None:
    moves = whole_game()
    pairs: list[tuple[Client, Client]] = []
    rooms: list[str] = []
    try:
        for n in range(GAMES):
            pairs.append((await connect(server, f"w{n}"), await connect(server, f"b{n}")))
            rooms.append((await start_game(*pairs[-1], time_control=FISCHER))[0])
        halfway = asyncio.Event()
        slowest = [0.0]
        played = [0] * GAMES

        async def one_game(n: int) -> list[Message]:
            told = []
            for ply, move in enumerate(moves):
                sent = time.monotonic()
                told.append(await move_until_stored(pairs[n][ply % 2], rooms[n], ply, move))
                slowest[0] = max(slowest[0], time.monotonic() - sent)
                played[n] += 1
                if min(played) >= 3:
                    halfway.set()
            return told

        async def restart() -> None:
            await halfway.wait()
            started = time.monotonic()
            await asyncio.to_thread(postgres.restart)
            report("pg_ctl -m fast restart", time.monotonic() - started)

        restarting = asyncio.create_task(restart())
        games = await asyncio.gather(*(one_game(n) for n in range(GAMES)))
        await restarting
        report(f"the slowest of {GAMES} games' moves through the restart", slowest[0])
        base = str(server.make_url("")).rstrip("/")
        for room_id, told in zip(rooms, games, strict=True):
            record = await get_json(base, f"/api/games/{room_id}")
            check_record(record, told, moves)
            assert record["status"] == "finished"
    finally:
        await close_all([client for pair in pairs for client in pair])
