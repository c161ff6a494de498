"""Search speed: nodes a second for every game, from a few positions of random openings.

Prints a table; not part of the test run. Usage: ``python bench/search.py [--seconds S]``.
Each position is searched with a time limit, so deeper or shallower depths are reached
depending on the machine; the figure to compare is nodes a second.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from gamut_engine import AnyGame, load_game
from gamut_engine.search import Limits, Searcher

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("network", {}),
    ("connect5", {"size": 15}),
    ("loa", {"size": 8}),
    ("loa", {"size": 6}),
    ("crusher", {"n": 3}),
    ("crusher", {"n": 4}),
]
POSITIONS = 3


def positions(game: AnyGame, count: int) -> list[Any]:
    """Running positions after 4, 10, 16… random plies."""
    rng = random.Random(1)
    found: list[Any] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(4 + 6 * len(found)):
            if game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
        if game.outcome(state) is None:
            found.append(state)
    return found


def main() -> None:
    """Print one row per game: depth reached, nodes, seconds and nodes a second."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per position")
    args = parser.parse_args()
    print(f"{'game':<24} {'depths':>9} {'nodes':>10} {'seconds':>8} {'nodes/s':>9}")
    for name, options in CONFIGS:
        game = load_game(name, **options)
        nodes = 0
        seconds = 0.0
        depths = []
        for state in positions(game, POSITIONS):
            result = Searcher(game).search(state, Limits(time=args.seconds))
            nodes += result.stats.nodes
            seconds += result.stats.elapsed
            depths.append(result.depth)
        reached = "/".join(str(depth) for depth in depths)
        rate = nodes / seconds if seconds else 0.0
        print(f"{game.title:<24} {reached:>9} {nodes:>10,} {seconds:>8.1f} {rate:>9,.0f}")


if __name__ == "__main__":
    main()
