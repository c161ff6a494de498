"""Group commit under the store, on SQLite and PostgreSQL: writes made at the same time
share a transaction, each caller still gets its own answer after the commit, a failing
write fails alone, and nothing acknowledged is lost by a close or a killed process."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import AsyncIterator
from contextlib import closing
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from gamut_server.storage import (
    ChatLine,
    Clock,
    DuplicateChatError,
    DuplicateMoveError,
    GameStateError,
    MoveOrderError,
    MoveRecord,
    NewGame,
    Player,
    Result,
    Store,
    StoreClosedError,
    database_url,
)
from gamut_server.storage.connect import make_engine
from gamut_server.storage.group import GroupWriter
from gamut_server.storage.migrate import upgrade
from gamut_server.storage.schema import chat
from gamut_server.storage.writes import insert_chat
from tests.server.storage_backends import Backend
from tests.server.writer_statements import writer_statements

ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
SPEC = NewGame(
    game="network",
    options={},
    time_control={"kind": "untimed"},
    players=(Player("alice", "human"), Player("bob", "bot")),
    clock=Clock(None, 0),
)


@pytest.fixture
async def engine(backend: Backend) -> AsyncIterator[AsyncEngine]:
    """The store's kind of engine on the test's database, with the tables made."""
    made = make_engine(database_url(backend.url), backend.schema)
    await upgrade(made, backend.schema)
    yield made
    await made.dispose()


def count_commits(engine: AsyncEngine) -> list[int]:
    """A one-item list that counts the transactions ``engine`` commits from now on."""
    commits = [0]

    def committed(_conn: object) -> None:
        commits[0] += 1

    event.listen(engine.sync_engine, "commit", committed)
    return commits


async def record(store: Store, game_id: str, ply: int, move: str | None = None) -> None:
    """Record move ``ply`` of an untimed game (``m{ply}`` unless ``move`` is given)."""
    clock = Clock(None, to_move=1 - ply % 2)
    text = f"m{ply}" if move is None else move
    await store.record_move(
        game_id, ply=ply, move=text, side=ply % 2, think_ms=ply, clock=clock, seq=ply + 1
    )


async def play(store: Store, game_id: str, moves: int, first: int = 0) -> None:
    """Record ``moves`` moves of one game, each awaited before the next."""
    for ply in range(first, first + moves):
        await record(store, game_id, ply)


async def new_games(store: Store, count: int) -> list[str]:
    """Start ``count`` games; their ids."""
    return [(await store.create_game(SPEC)).id for _ in range(count)]


def chat_line(seq: int) -> ChatLine:
    """A chat line of the lobby."""
    return ChatLine(room="lobby", seq=seq, author="alice", text=f"line {seq}", at=T0)


async def test_many_games_moving_at_once_all_commit_in_order(store: Store) -> None:
    games = await new_games(store, 30)
    await asyncio.gather(*(play(store, game_id, 12) for game_id in games))
    for game_id in games:
        stored = await store.game(game_id)
        assert [move.ply for move in stored.moves] == list(range(12))
        assert [move.move for move in stored.moves] == [f"m{ply}" for ply in range(12)]
        assert [move.seq for move in stored.moves] == list(range(1, 13))
        assert (stored.info.plies, stored.info.last_seq) == (12, 12)
        assert stored.info.clock == Clock(None, to_move=0)


async def test_requests_waiting_together_share_one_commit(engine: AsyncEngine) -> None:
    writer = GroupWriter(engine, writers=2, max_group=16)
    commits = count_commits(engine)

    async def line(seq: int) -> None:
        await writer.run(lambda conn: insert_chat(conn, chat_line(seq)))

    await asyncio.gather(*(line(seq) for seq in range(40)))
    assert commits[0] == 3  # 40 requests waiting at once, 16 to a group
    await writer.close()
    async with engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(chat))).scalar() == 40


async def test_a_failing_request_fails_alone_and_keeps_its_writes_out(engine: AsyncEngine) -> None:
    writer = GroupWriter(engine, writers=1)
    commits = count_commits(engine)

    async def half_then_fail(conn: AsyncConnection) -> None:
        await insert_chat(conn, chat_line(100))
        raise ValueError("refused after writing")

    results = await asyncio.gather(
        writer.run(lambda conn: insert_chat(conn, chat_line(1))),
        writer.run(half_then_fail),
        writer.run(lambda conn: insert_chat(conn, chat_line(2))),
        return_exceptions=True,
    )
    assert (results[0], results[2]) == (None, None)
    assert isinstance(results[1], ValueError)
    assert commits[0] == 1  # the group ran again with savepoints, and committed once
    await writer.close()
    async with engine.connect() as conn:
        seqs = (await conn.execute(select(chat.c.seq).order_by(chat.c.seq))).scalars().all()
    assert list(seqs) == [1, 2]


async def test_bad_moves_in_a_group_fail_alone(store: Store) -> None:
    games = await new_games(store, 6)
    for game_id in games:
        await record(store, game_id, 0)
    await store.record_chat("lobby", seq=1, author="alice", text="hi")
    finished = games[5]
    await store.finish_game(finished, Result(0, "resign"))
    results = await asyncio.gather(
        record(store, games[0], 1),
        record(store, games[1], 0, "other"),  # another move at a stored ply
        record(store, games[2], 1),
        record(store, games[3], 5),  # skips ahead
        store.record_chat("lobby", seq=1, author="bob", text="taken seq"),
        record(store, games[4], 1),
        record(store, finished, 1),  # the game is over
        return_exceptions=True,
    )
    assert [type(result).__name__ for result in results] == [
        "NoneType",
        DuplicateMoveError.__name__,
        "NoneType",
        MoveOrderError.__name__,
        DuplicateChatError.__name__,
        "NoneType",
        GameStateError.__name__,
    ]
    plies = [(await store.game_info(game_id)).plies for game_id in games]
    assert plies == [2, 1, 2, 1, 2, 1]
    assert [line.author for line in await store.chat_lines("lobby")] == ["alice"]


async def test_a_caller_that_gives_up_does_not_disturb_the_others(store: Store) -> None:
    games = await new_games(store, 3)
    tasks = [asyncio.create_task(record(store, game_id, 0)) for game_id in games]
    await asyncio.sleep(0)  # every task has asked for its write
    tasks[1].cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert (results[0], results[2]) == (None, None)
    assert isinstance(results[1], asyncio.CancelledError)
    assert [(await store.game_info(game_id)).plies for game_id in games[::2]] == [1, 1]
    await play(store, games[0], 3, first=1)  # the writer carries on
    assert (await store.game_info(games[0])).plies == 4


async def test_acknowledged_writes_survive_close_and_reopen(backend: Backend) -> None:
    first = await backend.open()
    games = await new_games(first, 10)
    await asyncio.gather(*(play(first, game_id, 5) for game_id in games))
    waiting = [asyncio.create_task(record(first, game_id, 5)) for game_id in games]
    await asyncio.sleep(0)  # the sixth moves are queued, not yet committed
    await first.close()  # lets them commit before closing
    await asyncio.gather(*waiting)
    with pytest.raises(StoreClosedError):
        await record(first, games[0], 6)
    async with await backend.open() as second:
        for game_id in games:
            stored = await second.game(game_id)
            assert [move.ply for move in stored.moves] == list(range(6))
            assert stored.info.plies == 6


@pytest.mark.slow
async def test_a_killed_writer_loses_no_acknowledged_move(backend: Backend) -> None:
    command = [sys.executable, "-m", "tests.server.crash_writer", backend.url]
    child = await asyncio.create_subprocess_exec(
        *command, *([backend.schema] if backend.schema else []), cwd=ROOT, stdout=-1
    )
    assert child.stdout is not None
    acknowledged: dict[str, int] = {}
    while sum(acknowledged.values()) < 150:
        words = (await child.stdout.readline()).decode().split()
        if not words or words[0] == "done":
            break
        if words[0] == "ack":
            acknowledged[words[1]] = int(words[2]) + 1
    child.kill()
    await child.wait()
    assert sum(acknowledged.values()) >= 150
    async with await backend.open() as reopened:
        for game_id, plies in acknowledged.items():
            stored = await reopened.game(game_id)
            assert stored.info.plies >= plies
            assert [move.ply for move in stored.moves] == list(range(stored.info.plies))


async def test_sqlite_takes_one_writer(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="one group writer"):
        await Store.open(str(tmp_path / "one.sqlite3"), writers=2)


async def test_moves_written_together_read_back_as_given(store: Store) -> None:
    games = await new_games(store, 12)
    paris = timezone(timedelta(hours=1))
    sent: dict[str, list[MoveRecord]] = {game_id: [] for game_id in games}

    async def timed(game_id: str, ply: int) -> None:
        clock = Clock((60_000 - ply, 59_000 + ply), to_move=1 - ply % 2)
        at = datetime(2026, 3, 1, 13, ply, 7, 123_456 + ply, tzinfo=paris)
        sent[game_id].append(
            await store.record_move(
                game_id,
                ply=ply,
                move=f"m{ply}",
                side=ply % 2,
                think_ms=7 * ply,
                clock=clock,
                seq=ply + 1,
                at=at,
            )
        )

    for ply in range(3):
        await asyncio.gather(*(timed(game_id, ply) for game_id in games))
    for game_id, records in sent.items():
        stored = await store.game(game_id)
        assert list(stored.moves) == records
        assert stored.info.clock == records[-1].clock
        assert stored.info.clock_at == records[-1].at
        assert (stored.info.plies, stored.info.last_seq) == (3, 3)


async def test_a_group_of_moves_reads_nothing_on_sqlite(tmp_path: Path) -> None:
    async with await Store.open(str(tmp_path / "moves.sqlite3")) as store:
        games = await new_games(store, 20)
        with writer_statements() as statements:
            await asyncio.gather(*(play(store, game_id, 4) for game_id in games))
    assert statements.count("INSERT") >= 4  # at least a group a ply
    assert "SELECT" not in statements  # every move checked by the update that writes it


async def test_plies_of_one_game_in_one_group_commit_in_order(store: Store) -> None:
    games = await new_games(store, 3)
    results = await asyncio.gather(
        record(store, games[0], 0),
        record(store, games[0], 1),  # right after its ply 0, in the same group
        record(store, games[1], 0),
        record(store, games[0], 2),
        record(store, games[2], 1),  # skips ahead
        record(store, games[1], 1),
        return_exceptions=True,
    )
    assert [type(result).__name__ for result in results] == [
        *["NoneType"] * 4,
        MoveOrderError.__name__,
        "NoneType",
    ]
    stored = await store.game(games[0])
    assert [move.move for move in stored.moves] == ["m0", "m1", "m2"]
    assert [(await store.game_info(game_id)).plies for game_id in games] == [3, 2, 0]


async def test_a_move_s_time_is_stored_as_every_other_time(tmp_path: Path) -> None:
    path = tmp_path / "times.sqlite3"
    async with await Store.open(str(path)) as store:
        game_id = await store.add_game(SPEC, at=T0)  # written through SQLAlchemy
        await store.record_move(
            game_id, ply=0, move="m0", side=0, think_ms=0, clock=Clock(None, 1), seq=1, at=T0
        )
    with closing(sqlite3.connect(path)) as conn:
        created, clock_at = conn.execute("SELECT created_at, clock_at FROM games").fetchone()
        (moved,) = conn.execute("SELECT at FROM moves").fetchone()
    assert created == "2026-03-01 12:00:00.000000"
    assert clock_at == moved == created
