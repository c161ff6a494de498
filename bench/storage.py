"""Storage speed: moves recorded per second on SQLite and PostgreSQL.

Each move is one committed transaction, as the server writes it before broadcasting.
Two figures per database: one game writing alone (each move awaited before the next)
and several games writing at once. Prints a table; not part of the test run.

Usage: ``python bench/storage.py [--moves N] [--games K] [--postgres URL | --no-postgres]``.
SQLite writes to a temporary file; PostgreSQL to a temporary schema, dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import tempfile
import time
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from gamut_server.storage import Clock, NewGame, Player, Store, database_url

PLAYERS = (Player("alice", "human"), Player("bob", "bot"))


async def play_game(store: Store, moves: int) -> None:
    """Create a game and record ``moves`` moves, one commit each."""
    info = await store.create_game(
        NewGame("connect5", {"size": 19}, {"kind": "untimed"}, PLAYERS, Clock(None, 0))
    )
    for ply in range(moves):
        clock = Clock(None, to_move=1 - ply % 2)
        await store.record_move(
            info.id, ply=ply, move=f"m{ply}", side=ply % 2, think_ms=10, clock=clock, seq=ply + 1
        )


async def moves_per_second(store: Store, moves: int, games: int) -> float:
    """Moves per second with ``games`` games each writing ``moves // games`` moves at once."""
    each = max(1, moves // games)
    started = time.perf_counter()
    await asyncio.gather(*(play_game(store, each) for _ in range(games)))
    return each * games / (time.perf_counter() - started)


async def measure(label: str, url: str, schema: str | None, args: argparse.Namespace) -> None:
    """Print the sequential and concurrent figures for one database."""
    async with await Store.open(url, schema=schema) as store:
        await play_game(store, 20)  # warm the connection pool and caches
        alone = await moves_per_second(store, args.moves, 1)
        together = await moves_per_second(store, args.moves, args.games)
    print(f"{label:<12} {alone:>14,.0f} {together:>20,.0f}")


async def drop_schema(url: str, schema: str) -> None:
    """Remove the benchmark's schema."""
    engine = create_async_engine(database_url(url))
    try:
        async with engine.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    finally:
        await engine.dispose()


async def main(args: argparse.Namespace) -> None:
    """Run the benchmark on each database asked for."""
    print(f"{'database':<12} {'1 game, moves/s':>14} {f'{args.games} games, moves/s':>20}")
    with tempfile.TemporaryDirectory() as folder:
        await measure("sqlite", str(Path(folder) / "bench.sqlite3"), None, args)
    if args.no_postgres:
        return
    schema = f"gamut_bench_{secrets.token_hex(4)}"
    try:
        await measure("postgresql", args.postgres, schema, args)
    finally:
        await drop_schema(args.postgres, schema)


def parse_args() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000, help="moves per measurement")
    parser.add_argument("--games", type=int, default=8, help="games writing at once")
    parser.add_argument(
        "--postgres", default="postgresql://root@127.0.0.1:5432/test", help="PostgreSQL URL"
    )
    parser.add_argument("--no-postgres", action="store_true", help="measure SQLite only")
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
