"""Nodes a second of Connect Five's whole search on the forced-win puzzles.

A fresh searcher's timed search of ``--seconds`` (1 by default) on each puzzle of
``bench/connect5_puzzles.txt``, all on one game object as a server's AI keeps one (its
threat tables, and the compiled core's, warm from puzzle to puzzle), counting
every position any part of the search entered: alpha-beta nodes, the depth-first
threat searches' attacker positions and the proof-number search's nodes (the compiled
core's as well where it is built). Prints one row a puzzle and the median and total
nodes a second over CPU time. An older engine runs the same puzzles from an export of
its commit, first on ``PYTHONPATH``, so that both are measured in one run::

    PYTHONPATH=/tmp/gamut-before/engine python bench/connect5_speed.py
    python bench/connect5_speed.py

Usage: ``python bench/connect5_speed.py [--seconds S] [--only N]``.
"""

from __future__ import annotations

import argparse
import statistics
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
    args = parser.parse_args()
    rates, total_nodes, total_cpu = [], 0, 0.0
    print(f"{'puzzle':<28} {'move':>5} {'score':>12} {'depth':>5} {'nodes':>9} {'nodes/s':>10}")
    game = ConnectFiveGame(size=15)
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
    print(f"median {median:,.0f} nodes/s; all {total_nodes:,} nodes in {total_cpu:.1f} s CPU")


if __name__ == "__main__":
    main()
