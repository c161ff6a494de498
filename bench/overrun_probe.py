"""How late the AI answers: timed moves measured in wall time and in the program's own CPU time.

Run by ``bench/ai.py --parts overruns`` as a separate process, once per engine version
(the version is whatever ``gamut_engine`` the ``PYTHONPATH`` finds first), so it uses
only the engine's public players and prints one JSON object per game on standard output.

Each move is timed from the call of ``choose_move`` to its return. The searcher's clock
is wrapped so that every reading also notes the thread's CPU time; a move's *wall
overrun* is its seconds past the budget, its *CPU overrun* the CPU time the program
spent past the deadline (counted from its last clock reading before it, less the wall
time from that reading to the deadline), which a machine too busy to give the program a
core does not inflate. The largest gap between two clock readings, and the line that
read the clock after it, say where a move ran without looking at the time.

With ``--pool`` it measures the server's AI instead: two games at once through a pool
of one worker process (so one request always waits for the other), level 8 with the
budget as each request's ``budget_ms``; a move's overrun is the time from asking the
pool to holding the answer, past the budget (wall time only: the work is in the worker).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from gamut_engine import AnyGame, load_game
from gamut_engine.players import AIPlayer, parse_player

GAP_REPORTED = 0.002
"""Gaps between clock readings shorter than this are not worth a stack."""


@dataclass
class WatchedClock:
    """A wall clock that remembers, for one move, how the search read it."""

    deadline: float = float("inf")
    last: tuple[float, float] = (0.0, 0.0)
    """Wall and CPU time of the latest reading."""
    before: tuple[float, float] = (0.0, 0.0)
    """Wall and CPU time of the last reading before the deadline."""
    gap: float = 0.0
    """The largest CPU time between two readings (or the last one and the answer)."""
    where: str = ""
    reads: int = 0
    stacks: list[str] = field(default_factory=list)

    def start(self, budget: float) -> None:
        """Begin a move of ``budget`` seconds now."""
        now = time.perf_counter(), time.thread_time()
        self.deadline = now[0] + budget
        self.last = self.before = now
        self.gap, self.where, self.reads = 0.0, "", 0

    def __call__(self) -> float:
        now = time.perf_counter()
        cpu = time.thread_time()
        gap = cpu - self.last[1]
        if gap > self.gap:
            self.gap = gap
            if gap > GAP_REPORTED:
                self.where = _caller()
        self.last = (now, cpu)
        if now < self.deadline:
            self.before = (now, cpu)
        self.reads += 1
        return now

    def finish(self) -> tuple[float, float]:
        """Wall and CPU overrun of the move that just returned, in seconds (0 if none)."""
        wall, cpu = time.perf_counter(), time.thread_time()
        gap = cpu - self.last[1]
        if gap > self.gap:
            self.gap, self.where = gap, "after its last clock reading"
        if wall <= self.deadline:
            return 0.0, 0.0
        spent = (cpu - self.before[1]) - (self.deadline - self.before[0])
        return wall - self.deadline, max(0.0, spent)


def _caller() -> str:
    """The lines that read the clock, innermost last, below this module."""
    frames = traceback.extract_stack(limit=6)[:-2]
    return " < ".join(
        f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno} {frame.name}"
        for frame in reversed(frames)
    )


def opening(game: AnyGame, plies: int, seed: int) -> Any:
    """A running position after ``plies`` seeded random moves."""
    for attempt in range(100):
        rng = random.Random(f"{seed}:{attempt}")
        state = game.initial_state()
        for _ in range(plies):
            if game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
        if game.outcome(state) is None:
            return state
    raise RuntimeError("no running opening found")


def watched_player(spec: str, clock: WatchedClock) -> AIPlayer:
    """The AI player ``spec`` names, its searcher reading ``clock``."""
    player = parse_player(spec)
    assert isinstance(player, AIPlayer)
    original = player._searcher_for

    def searcher_for(game: AnyGame) -> Any:
        searcher = original(game)
        searcher.clock = clock
        return searcher

    player._searcher_for = searcher_for  # type: ignore[method-assign]
    return player


def play_game(args: argparse.Namespace, index: int) -> dict[str, Any]:
    """One game of the player against itself; its largest overruns and worst gap."""
    game = load_game(args.game, **json.loads(args.options))
    state = opening(game, args.opening, seed=index)
    clock = WatchedClock()
    players = (watched_player(args.player, clock), watched_player(args.player, clock))
    wall_worst, cpu_worst, gap, where, moves = 0.0, 0.0, 0.0, "", 0
    for _ in range(args.plies):
        if game.outcome(state) is not None:
            break
        clock.start(args.budget)
        move = players[game.to_move(state)].choose_move(game, state)
        wall, cpu = clock.finish()
        wall_worst, cpu_worst = max(wall_worst, wall), max(cpu_worst, cpu)
        if clock.gap > gap:
            gap, where = clock.gap, clock.where
        moves += 1
        state = game.play(state, move)
    return {"wall": wall_worst, "cpu": cpu_worst, "gap": gap, "where": where, "moves": moves}


async def pool_games(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Two games played at once through one AI worker; each game's largest overrun."""
    from gamut_server.ai.pool import AIPool
    from gamut_server.ai.worker import ThinkRequest

    game = load_game(args.game, **json.loads(args.options))
    pool = AIPool(1)
    await pool.start()
    games = [opening_moves(game, args.opening, seed=index) for index in range(2)]
    worst = [0.0, 0.0]

    async def move(index: int) -> None:
        state, moves = games[index]
        request = ThinkRequest(args.game, json.loads(args.options), tuple(moves), 8, budget_ms)
        asked = time.perf_counter()
        answer = await pool.think(request)
        worst[index] = max(worst[index], time.perf_counter() - asked - args.budget)
        games[index] = (
            game.play(state, game.parse_move(state, answer.move)),
            [*moves, answer.move],
        )

    budget_ms = round(args.budget * 1000)
    try:
        for _ in range(args.plies):
            running = [i for i, (state, _) in enumerate(games) if game.outcome(state) is None]
            if not running:
                break
            await asyncio.gather(*(move(index) for index in running))
    finally:
        await pool.close()
    return [{"wall": seconds, "cpu": None, "gap": 0.0, "where": ""} for seconds in worst]


def opening_moves(game: AnyGame, plies: int, seed: int) -> tuple[Any, list[str]]:
    """A running position after ``plies`` seeded random moves, and those moves' text."""
    rng = random.Random(f"pool:{seed}")
    while True:
        state, moves = game.initial_state(), []
        for _ in range(plies):
            if game.outcome(state) is not None:
                break
            move = rng.choice(game.legal_moves(state))
            moves.append(game.format_move(move))
            state = game.play(state, move)
        if game.outcome(state) is None:
            return state, moves


def main() -> None:
    """Play the games asked for and print one JSON line for each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--options", default="{}", help="the game's options as JSON")
    parser.add_argument("--budget", type=float, required=True, help="seconds a move")
    parser.add_argument("--player", help="player spec (default ai:time=BUDGET)")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--plies", type=int, default=20, help="moves a game")
    parser.add_argument("--opening", type=int, default=8, help="random plies first")
    parser.add_argument("--pool", action="store_true", help="through the server's AI pool")
    args = parser.parse_args()
    if args.pool:
        for line in asyncio.run(pool_games(args)):
            print(json.dumps(line), flush=True)
        return
    if args.player is None:
        args.player = f"ai:time={args.budget:g}"
    for index in range(args.games):
        print(json.dumps(play_game(args, index)), flush=True)


if __name__ == "__main__":
    main()
