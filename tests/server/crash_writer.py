"""A process that records moves in many games at once until it is killed (crash tests).

``python -m tests.server.crash_writer URL [SCHEMA]`` opens a store, starts
:data:`GAMES` games and plays them all concurrently, printing ``ack GAME_ID PLY`` as
soon as each ``record_move`` has returned, that is once its group committed. The
test kills the process at some point and checks that every acknowledged move is
stored. It stops by itself after :data:`MOVES` moves per game.
"""

from __future__ import annotations

import asyncio
import os
import sys

from gamut_server.storage import Clock, NewGame, Player, Store

GAMES = 20
"""Games played at once."""

MOVES = 60
"""Moves per game before the process stops by itself."""

SPEC = NewGame(
    game="network",
    options={},
    time_control={"kind": "untimed"},
    players=(Player("alice", "human"), Player("bob", "bot")),
    clock=Clock(None, 0),
)


async def play(store: Store, game_id: str) -> None:
    """Record :data:`MOVES` moves of one game, acknowledging each on stdout."""
    for ply in range(MOVES):
        clock = Clock(None, to_move=1 - ply % 2)
        await store.record_move(
            game_id, ply=ply, move=f"m{ply}", side=ply % 2, think_ms=1, clock=clock, seq=ply + 1
        )
        print(f"ack {game_id} {ply}", flush=True)


async def main(url: str, schema: str | None) -> None:
    """Start the games and play them together."""
    store = await Store.open(url, schema=schema)
    games = [(await store.create_game(SPEC)).id for _ in range(GAMES)]
    for game_id in games:
        print(f"game {game_id}", flush=True)
    await asyncio.gather(*(play(store, game_id) for game_id in games))
    print("done", flush=True)
    os._exit(0)  # end abruptly, as the kill would: no close


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
