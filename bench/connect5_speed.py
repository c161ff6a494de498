"""Nodes a second of Connect Five's whole search on the forced-win puzzles.

A fresh searcher's timed search of ``--seconds`` (1 by default) on each puzzle of
``bench/connect5_puzzles.txt``, all on one game object as a server's AI keeps one (its
threat tables, and the compiled core's, warm from puzzle to puzzle; the core made
before the first, as a server makes it once a game), counting
every position any part of the search entered: alpha-beta nodes, the depth-first
threat searches' attacker positions and the proof-number search's nodes (the compiled
core's as well where it is built). Prints one row a puzzle and the median and total
nodes a second over CPU time. An older engine runs the same puzzles from an export of
its commit, first on ``PYTHONPATH``, so that both are measured in one run::

    PYTHONPATH=/tmp/gamut-before/engine python bench/connect5_speed.py
    python bench/connect5_speed.py

``--compare`` runs the puzzles twice more in child processes, with the pure-Python
search (``GAMUT_NO_COMPILED=1``) and with the compiled core, alternately ``--rounds``
times, and prints each run's totals, the ratio of the two and the load average;
``--before DIR`` adds a third, an older engine's compiled core from an export
(``DIR`` is its ``engine`` directory, put first on ``PYTHONPATH``).

Usage: ``python bench/connect5_speed.py [--seconds S] [--only N] [--compare [--rounds R]]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from connect5_puzzles import load_puzzles

from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.search import Limits, Searcher, describe_score


def threat_nodes(game: ConnectFiveGame) -> int:
    """Positions the game's threat searches entered so far, Python's and compiled."""
    nodes = game.solver.nodes + game.prover.nodes
    compiled = getattr(game, "_compiled", None)  # absent from engines before the core
    if compiled is not None:
        nodes += sum(compiled.core.nodes())
    return nodes


def main() -> None:
    """Search every puzzle and print its nodes a second."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds a puzzle (1)")
    parser.add_argument("--only", type=int, help="only the first N puzzles")
    parser.add_argument("--compare", action="store_true", help="Python against compiled")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each with --compare")
    parser.add_argument("--before", help="an older engine directory, also run with --compare")
    args = parser.parse_args()
    if args.compare:
        compare(args)
        return
    rates, total_nodes, total_cpu = [], 0, 0.0
    print(f"{'puzzle':<28} {'move':>5} {'score':>12} {'depth':>5} {'nodes':>9} {'nodes/s':>10}")
    game = ConnectFiveGame(size=15)
    make_core = getattr(game, "compiled_search", lambda: None)  # absent before the core
    make_core()  # made once a game, as a server's is: not part of any search
    for puzzle in load_puzzles()[: args.only]:
        state = game.decode(puzzle.position)
        before = threat_nodes(game)
        started = time.process_time()
        result = Searcher(game).search(state, Limits(time=args.seconds))
        cpu = time.process_time() - started
        nodes = result.stats.nodes + threat_nodes(game) - before
        rate = nodes / cpu if cpu else 0.0
        rates.append(rate)
        total_nodes += nodes
        total_cpu += cpu
        score = describe_score(result.score)
        print(
            f"{puzzle.source[:28]:<28} {game.format_move(result.move):>5} {score:>12} "
            f"{result.depth:>5} {nodes:>9,} {rate:>10,.0f}",
            flush=True,
        )
    median = statistics.median(rates)
    print(f"median {median:,.0f} nodes/s; all {total_nodes:,} nodes in {total_cpu:.3f} s CPU")
    print(f"total {total_nodes / total_cpu:.0f} nodes/s")


def run_once(args: argparse.Namespace, python: bool, engine: str | None) -> tuple[float, str]:
    """One child run of the puzzles; its total nodes a second and its summary line."""
    env = dict(os.environ)
    env.pop("GAMUT_NO_COMPILED", None)
    if python:
        env["GAMUT_NO_COMPILED"] = "1"
    if engine is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [engine, env.get("PYTHONPATH")]))
    command = [sys.executable, __file__, "--seconds", str(args.seconds)]
    if args.only:
        command += ["--only", str(args.only)]
    lines = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    out = lines.stdout.splitlines()
    return float(out[-1].split()[1]), out[-2]


def compare(args: argparse.Namespace) -> None:
    """The Python search and the compiled one, alternately, with the ratio of their rates."""
    runs: list[tuple[str, bool, str | None]] = [("python", True, None), ("compiled", False, None)]
    if args.before:
        runs.append(("before", False, args.before))
    rates: dict[str, list[float]] = {name: [] for name, _, _ in runs}
    for _ in range(args.rounds):
        for name, python, engine in runs:
            rate, summary = run_once(args, python, engine)
            rates[name].append(rate)
            load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
            print(f"{name:<8} {summary} (load {load})", flush=True)
    python_rate = statistics.median(rates["python"])
    for name, _, _ in runs[1:]:
        ratio = statistics.median(rates[name]) / python_rate
        print(f"{name}/python over all puzzles: {ratio:.1f} times (medians of {args.rounds} runs)")


if __name__ == "__main__":
    main()
