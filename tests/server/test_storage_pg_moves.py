"""A group of moves on PostgreSQL: two statements a run (``UPDATE … FROM unnest``, ``INSERT
… SELECT FROM unnest``) and no read, the same rows as the general way, and refused moves
(a duplicate, a game over, a skipped ply, a stale epoch) failing alone."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import Engine

from gamut_server.storage import (
    Store,
)
from tests.server.storage_backends import Backend, drop_schema, new_schema_name, postgres_url
from tests.server.test_storage_raw import (
    PLIES_KEPT,
    REFUSALS,
    Move,
    four_games,
    games_to_refuse,
    moves_after_the_refusals,
    moves_refused_alone,
    play_all,
    record,
)


@asynccontextmanager
async def postgres_store() -> AsyncIterator[Store]:
    """A store in a PostgreSQL schema of the test's own (skipped without PostgreSQL)."""
    url = await postgres_url()
    schema = new_schema_name()
    try:
        async with await Backend("postgresql", url, schema).open() as store:
            yield store
    finally:
        await drop_schema(url, schema)


@contextmanager
def executed() -> Iterator[list[str]]:
    """Every statement SQLAlchemy hands to a driver during the block."""
    statements: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(statement)

    event.listen(Engine, "before_cursor_execute", seen)
    try:
        yield statements
    finally:
        event.remove(Engine, "before_cursor_execute", seen)


def plain_updates(statements: list[str]) -> int:
    """How many of ``statements`` update a run's games from arrays."""
    return sum(s.startswith("UPDATE games SET") and "unnest" in s for s in statements)


def general_updates(statements: list[str]) -> int:
    """How many of ``statements`` update a game after one move, the general way."""
    return sum(s.startswith("UPDATE games SET") and "unnest" not in s for s in statements)


async def stored_rows(store: Store) -> tuple[list[Any], list[Any]]:
    """Every games row and moves row of the store's database, as the driver gives them."""
    async with store._read() as conn:
        game_rows = (await conn.execute(text("SELECT * FROM games ORDER BY id"))).all()
        move_rows = (await conn.execute(text("SELECT * FROM moves ORDER BY game_id, ply"))).all()
    return [tuple(row) for row in game_rows], [tuple(row) for row in move_rows]


async def test_a_group_of_moves_is_two_statements_a_run_and_reads_nothing() -> None:
    async with postgres_store() as store:
        games = await four_games(store)
        with executed() as statements:
            for ply in range(3):
                moves: list[Move] = [(game_id, ply, None) for game_id in games]
                assert await play_all(store, moves) == [None] * len(games)
    assert plain_updates(statements) >= 3
    assert general_updates(statements) == 0
    assert sum(s.startswith("INSERT INTO moves") for s in statements) == plain_updates(statements)
    assert not [s for s in statements if s.startswith("SELECT")]


async def test_runs_of_moves_store_the_rows_the_general_way_does() -> None:
    rows = []
    for plainly in (True, False):
        async with postgres_store() as store:
            await four_games(store)
            epoch = await store.claim_game("t2", "node-a")
            await store.record_chat("lobby", seq=1, author="alice", text="hi")
            with executed() as statements:
                for ply in range(4):
                    moves = [
                        (g, ply, epoch if g == "t2" else None) for g in ("u1", "u2", "t1", "t2")
                    ]
                    if plainly:
                        assert await play_all(store, moves) == [None] * 4
                        continue
                    for move in moves:  # beside a refused line: the general way
                        chat = store.record_chat("lobby", seq=1, author="bob", text="taken")
                        await asyncio.gather(record(store, move), chat, return_exceptions=True)
            assert general_updates(statements) == (0 if plainly else 16)
            rows.append(await stored_rows(store))
    assert rows[0] == rows[1]
    assert len(rows[0][1]) == 16


async def test_refused_moves_in_a_group_of_moves_fail_alone() -> None:
    async with postgres_store() as store:
        epoch = await games_to_refuse(store)
        with executed() as statements:
            results = await moves_refused_alone(store, epoch)
        assert plain_updates(statements) == 1  # tried, rolled back, then the general way
        await moves_after_the_refusals(store, epoch)
        _, move_rows = await stored_rows(store)
    assert [type(result).__name__ for result in results] == REFUSALS
    assert [(row[0], row[1]) for row in move_rows] == PLIES_KEPT
