"""The analysis's figures: how long a game takes, and what analyses cost live games.

Two parts:

1. ``speed``: a 60-ply game of Connect Five 15×15 (two depth-2 searches after two
   seeded random stones) analysed in this process, as one analysis worker does, at
   ``--work`` a position: wall seconds, the positions judged, the work done.
2. ``latency``: the server's AI pool answering live moves (level ``--level`` on
   Connect Five 15×15 positions of that game, one request after another) with no
   analysis running, then while three analyses run in the analysis workers (three
   processes, ``--nice`` steps below the server's CPU priority, the server's default),
   then with none again; each phase on a fresh AI pool, so no phase inherits another's
   tables. Prints each phase's latencies (median, 90th and 99th percentile, largest)
   and the 99th percentile under analysis against the idle phases'. ``--nice 0`` shows
   what the lower priority is worth.

Not part of the test run. Usage: ``python bench/analysis.py --parts speed,latency``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections.abc import Sequence
from typing import Any

from loadgen import percentile

from gamut_engine import AnyGame, load_game
from gamut_engine.analysis import Budget, analyse
from gamut_engine.players import AIPlayer
from gamut_server.ai.analysis_pool import AnalysisPool
from gamut_server.ai.analysis_worker import ANALYSIS_NICE, AnalysisRequest
from gamut_server.ai.pool import AIPool
from gamut_server.ai.worker import ThinkRequest

GAME = "connect5"
OPTIONS: dict[str, Any] = {"size": 15, "max_plies": 400}
PLIES = 60


def sixty_plies(seed: int) -> list[str]:
    """A running game of ``PLIES`` plies: two random stones, then two depth-2 searches."""
    game = load_game(GAME, **OPTIONS)
    for attempt in range(100):
        rng = random.Random(seed * 100 + attempt)
        player = AIPlayer(depth=2)
        state, moves = game.initial_state(), list[str]()
        while game.outcome(state) is None and len(moves) < PLIES:
            move = (
                player.choose_move(game, state)
                if moves[1:]
                else rng.choice(game.legal_moves(state))
            )
            moves.append(game.format_move(move))
            state = game.play(state, move)
        if len(moves) == PLIES:
            return moves
    raise RuntimeError("no game ran for sixty plies")


def speed(args: argparse.Namespace) -> None:
    """Analyse one sixty-ply game here and print how long it took."""
    game: AnyGame = load_game(GAME, **OPTIONS)
    moves = sixty_plies(args.seed)
    started = time.perf_counter()
    report = analyse(game, moves, Budget(work=args.work))
    seconds = time.perf_counter() - started
    judged = PLIES + 1 + sum(ply.best.move != ply.move for ply in report.plies)
    print(
        f"{PLIES} plies of Connect Five 15×15 at {args.work:,} work a position: "
        f"{seconds:.1f} s, {judged} positions judged ({seconds / judged:.2f} s each), "
        f"{report.effort:,} units of work ({report.effort / seconds:,.0f} a second)"
    )


async def phase(requests: Sequence[ThinkRequest]) -> list[float]:
    """Each request's latency in seconds, asked one after another of a fresh AI pool."""
    pool = AIPool(1)
    await pool.start()
    latencies = []
    try:
        for request in requests:
            asked = time.perf_counter()
            await pool.think(request)
            latencies.append(time.perf_counter() - asked)
    finally:
        await pool.close()
    return latencies


def summary(name: str, latencies: Sequence[float]) -> str:
    """One phase's latencies in milliseconds."""
    figures = [percentile(latencies, share) for share in (0.5, 0.9, 0.99)] + [max(latencies)]
    text = ", ".join(
        f"{label} {1000 * value:.0f}"
        for label, value in zip(("p50", "p90", "p99", "max"), figures, strict=True)
    )
    return f"{name:<24} {text} ms ({len(latencies)} moves)"


async def latency(args: argparse.Namespace) -> None:
    """The AI pool's latency with no analysis, with three, and with none again."""
    moves = sixty_plies(args.seed)
    requests = [
        ThinkRequest(GAME, OPTIONS, tuple(moves[:ply]), args.level, 10_000)
        for ply in range(10, PLIES, 2)
    ] * args.repeats
    before = await phase(requests)
    print(summary("idle", before), flush=True)
    workers = AnalysisPool(3, nice=args.nice)
    await workers.start()
    games = [sixty_plies(args.seed + 1 + index) for index in range(3)]
    running = [
        asyncio.create_task(
            workers.analyse(
                AnalysisRequest(f"bench{index}", GAME, OPTIONS, tuple(game), args.work, 600.0)
            )
        )
        for index, game in enumerate(games)
    ]
    await asyncio.sleep(args.settle)
    try:
        loaded = await phase(requests)
        still = sum(not task.done() for task in running)
    finally:
        await workers.close()
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
    print(summary(f"three analyses, nice {args.nice}", loaded), flush=True)
    after = await phase(requests)
    print(summary("idle again", after), flush=True)
    idle = percentile(before + after, 0.99)
    print(
        f"p99 under analysis {1000 * percentile(loaded, 0.99):.0f} ms against {1000 * idle:.0f} ms "
        f"idle: {percentile(loaded, 0.99) / idle - 1:+.1%} ({still} of 3 analyses still running at "
        "the end)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="speed,latency", help="speed, latency or both")
    parser.add_argument("--work", type=int, default=Budget().work, help="work a position")
    parser.add_argument("--level", type=int, default=4, help="the live moves' AI level")
    parser.add_argument("--repeats", type=int, default=2, help="times each position is asked")
    parser.add_argument("--nice", type=int, default=ANALYSIS_NICE, help="analysis workers' nice")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    parts = args.parts.split(",")
    if "speed" in parts:
        speed(args)
    if "latency" in parts:
        asyncio.run(latency(args))


if __name__ == "__main__":
    main()
