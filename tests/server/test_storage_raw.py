"""A group of nothing but moves on a SQLite file, written on the writer thread's own
``sqlite3`` connection: no SQLAlchemy on the thread, the same rows as the general way,
refused moves failing alone, and a locked file failing the group until it is free."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final

import pytest

from gamut_server.storage import (
    Clock,
    DuplicateMoveError,
    FencedError,
    GameStateError,
    MoveOrderError,
    NewGame,
    Player,
    Result,
    StorageUnavailableError,
    Store,
    connect,
)
from tests.faults.sqlite_faults import locked
from tests.server.writer_statements import sqlalchemy_on_the_writer, writer_statements

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PLAYERS = (Player("alice", "human"), Player("bob", "bot"))
UNTIMED = NewGame("network", {}, {"kind": "untimed"}, PLAYERS, Clock(None, 0))
TIMED = NewGame("network", {}, {"kind": "fischer"}, PLAYERS, Clock((60_000, 60_000), 0))

Move = tuple[str, int, int | None]
"""A move to record: its game, its ply and the epoch it is made at."""


def general_updates(statements: list[str]) -> int:
    """How many of ``statements`` are a game's update after one move, the general way."""
    return sum(text.startswith("UPDATE games SET") and "VALUES" not in text for text in statements)


async def record(store: Store, move: Move, text: str | None = None) -> None:
    """Record one move, its values all made from its ply."""
    game_id, ply, epoch = move
    clock = Clock((60_000 - ply, 59_000 + 3 * ply), to_move=1 - ply % 2)
    if game_id.startswith("u"):
        clock = Clock(None, to_move=1 - ply % 2)
    at = T0 + timedelta(seconds=ply, microseconds=ply)
    await store.record_move(
        game_id,
        ply=ply,
        move=text or f"m{ply}",
        side=ply % 2,
        think_ms=7 * ply,
        clock=clock,
        seq=ply + 1,
        at=at,
        epoch=epoch,
    )


async def play_all(store: Store, moves: list[Move]) -> list[BaseException | None]:
    """``moves`` asked for at once (so in one group); each one's error or ``None``."""
    return list(
        await asyncio.gather(*(record(store, move) for move in moves), return_exceptions=True)
    )


async def four_games(store: Store) -> list[str]:
    """Two untimed games and two timed ones, with known ids."""
    for game_id in ("u1", "u2", "t1", "t2"):
        spec = UNTIMED if game_id.startswith("u") else TIMED
        await store.add_game(replace(spec, game_id=game_id), at=T0)
    return ["u1", "u2", "t1", "t2"]


def stored_rows(path: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every games row and moves row of the file, as the driver gives them."""
    with closing(sqlite3.connect(path)) as conn:
        game_rows = conn.execute("SELECT * FROM games ORDER BY id").fetchall()
        move_rows = conn.execute("SELECT * FROM moves ORDER BY game_id, ply").fetchall()
    return game_rows, move_rows


async def test_a_group_of_moves_runs_no_sqlalchemy_on_the_writer_thread(tmp_path: Path) -> None:
    async with await Store.open(str(tmp_path / "raw.sqlite3")) as store:
        games = await four_games(store)
        with writer_statements() as statements, sqlalchemy_on_the_writer() as through_sqlalchemy:
            for ply in range(3):
                assert await play_all(store, [(game_id, ply, None) for game_id in games]) == [
                    None
                ] * len(games)
    assert through_sqlalchemy == []
    assert statements.count("BEGIN") == statements.count("COMMIT") >= 3
    assert statements.count("INSERT") >= 3
    assert "SELECT" not in statements


async def test_the_raw_way_stores_the_rows_the_general_way_does(tmp_path: Path) -> None:
    moves: list[Move] = []
    for ply in range(4):
        moves += [(game_id, ply, None) for game_id in ("u1", "u2", "t1", "t2")]
    paths = [tmp_path / "raw.sqlite3", tmp_path / "general.sqlite3"]
    for path in paths:
        async with await Store.open(str(path)) as store:
            await four_games(store)
            await store.claim_game("t2", "node-a")
            moves_here = [(g, ply, 1 if g == "t2" else None) for g, ply, _ in moves]
            if path == paths[0]:
                with sqlalchemy_on_the_writer() as through_sqlalchemy:
                    for ply in range(4):
                        await play_all(store, moves_here[4 * ply : 4 * ply + 4])
                assert through_sqlalchemy == []
            else:
                await store.record_chat("lobby", seq=1, author="alice", text="hi")
                with sqlalchemy_on_the_writer() as through_sqlalchemy:
                    for move in moves_here:  # beside a refused line: the general way
                        chat = store.record_chat("lobby", seq=1, author="bob", text="taken")
                        await asyncio.gather(record(store, move), chat, return_exceptions=True)
                assert general_updates(through_sqlalchemy) == len(moves)
    assert stored_rows(paths[0]) == stored_rows(paths[1])
    assert len(stored_rows(paths[0])[1]) == 16


REFUSALS: Final = [
    "NoneType",
    DuplicateMoveError.__name__,
    GameStateError.__name__,
    "NoneType",
    FencedError.__name__,
    MoveOrderError.__name__,
]
"""What each move of :func:`moves_refused_alone` is answered."""

PLIES_KEPT: Final = [("t1", 0), ("t2", 0), ("t2", 1), ("u1", 0), ("u1", 1), ("u1", 2), ("u2", 0)]
"""The moves stored once :func:`moves_after_the_refusals` has run."""


async def games_to_refuse(store: Store) -> int:
    """Four games with a first move, ``t1`` over, ``t2`` claimed (its epoch returned) and
    ``u3`` new."""
    for game_id in await four_games(store):
        await record(store, (game_id, 0, None))
    await store.finish_game("t1", Result(0, "resign"))
    epoch = await store.claim_game("t2", "node-b")
    await store.add_game(replace(UNTIMED, game_id="u3"), at=T0)
    return epoch


async def moves_refused_alone(store: Store, epoch: int) -> list[BaseException | None]:
    """One group of moves, four of them refused, each for its own reason."""
    results = await asyncio.gather(
        record(store, ("u1", 1, None)),
        record(store, ("u2", 0, None), "other"),  # another move at a stored ply
        record(store, ("t1", 1, None)),  # the game is over
        record(store, ("u1", 2, None)),  # right after its ply 1, in the same group
        record(store, ("t2", 1, epoch - 1)),  # a stale epoch
        record(store, ("u3", 2, None)),  # skips ahead
        return_exceptions=True,
    )
    return list(results)


async def moves_after_the_refusals(store: Store, epoch: int) -> None:
    """The fenced game's move with its epoch; a move made again after its answer is
    stored once."""
    assert await play_all(store, [("t2", 1, epoch)]) == [None]
    await record(store, ("u1", 2, None))
    with pytest.raises(DuplicateMoveError):
        await record(store, ("u1", 2, None), "other")


async def test_refused_moves_in_a_group_of_moves_fail_alone(tmp_path: Path) -> None:
    with writer_statements() as statements:
        async with await Store.open(str(tmp_path / "refused.sqlite3")) as store:
            epoch = await games_to_refuse(store)
            mark = len(statements)
            results = await moves_refused_alone(store, epoch)
            await moves_after_the_refusals(store, epoch)
    assert statements[mark : mark + 3] == ["BEGIN", "UPDATE", "ROLLBACK"]  # then the general way
    assert [type(result).__name__ for result in results] == REFUSALS
    _, move_rows = stored_rows(tmp_path / "refused.sqlite3")
    assert [(row[0], row[1]) for row in move_rows] == PLIES_KEPT


async def test_a_locked_file_fails_the_group_and_its_moves_are_taken_once_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connect, "SQLITE_BUSY_TIMEOUT_MS", 200)  # wait less for the lock
    path = tmp_path / "locked.sqlite3"
    async with await Store.open(str(path)) as store:
        games = await four_games(store)
        assert await play_all(store, [(game_id, 0, None) for game_id in games]) == [None] * 4
        moves: list[Move] = [(game_id, 1, None) for game_id in games]
        with locked(path):
            refused = await play_all(store, moves)
            assert all(isinstance(error, StorageUnavailableError) for error in refused)
        assert [len(rows) for rows in stored_rows(path)] == [4, 4]
        with sqlalchemy_on_the_writer() as through_sqlalchemy:
            assert await play_all(store, moves) == [None] * 4
        assert through_sqlalchemy == []  # on a new connection of the thread's own
    assert [len(rows) for rows in stored_rows(path)] == [4, 8]
