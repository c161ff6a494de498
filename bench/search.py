"""Search speed and depth: nodes a second and plies reached, from fixed positions.

Prints a table; not part of the test run. Two sets of positions:

- by default, every game from a few positions of random openings (``--seconds`` each,
  default 3): the figure to compare is nodes a second;
- ``--fixed``: Network and Lines of Action 8×8 from the mid-game positions below (taken
  from games of the AI against itself), each searched for the game's full move budget
  (5 s and 10 s, times ``--scale``) as level 8 would: the depth each search completed,
  its nodes, and nodes a second over all of them.

The positions are texts in the games' own encoding, so an older engine (a worktree of an
earlier commit, first on ``PYTHONPATH``) searches exactly the same ones::

    PYTHONPATH=/tmp/gamut-before/engine python bench/search.py --fixed

Usage: ``python bench/search.py [--seconds S] [--fixed [--scale F] [--only loa]]``.
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

FIXED: list[tuple[str, dict[str, Any], float, tuple[str, ...]]] = [
    (
        "network",
        {},
        5.0,
        (
            "......../W.....B./.WBW..../.B..W.../...B..W./.B....../......../........ W 10",
            "..B...../W....WB./.WBWB.../.B..W.../.WWB..W./.B....../......../.B...... W 16",
            "......B./WB.W.WW./.B..B.../..W...../.B.BW.B./..WB...W/..W...../.B...... W 18",
            "......B./...W..W./.B..B.../..W..W../WBWBW.B./...B.B.W/..WW..../.B.B.... W 30",
        ),
    ),
    (
        "loa",
        {"size": 8},
        10.0,
        (
            ".bbbbwb./......../ww..w.../w......w/w.b....w/...bb..w/w......w/b...b... b 10",
            "..bb.wb./......../.bbbw.../..w....w/..b..w.w/..b.b..w/w......./b....... b 18",
            "...b.w../......b./.bbbw.../..wbb.../..b.www./....w.../.w....../b....... b 26",
        ),
    ),
]
"""Game, options, full move budget in seconds, and positions of the ``--fixed`` set."""


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


def random_openings(seconds: float) -> None:
    """One row per game: depth reached, nodes, seconds and nodes a second."""
    print(f"{'game':<24} {'depths':>9} {'nodes':>10} {'seconds':>8} {'nodes/s':>9}")
    for name, options in CONFIGS:
        game = load_game(name, **options)
        nodes = 0
        elapsed = 0.0
        depths = []
        for state in positions(game, POSITIONS):
            result = Searcher(game).search(state, Limits(time=seconds))
            nodes += result.stats.nodes
            elapsed += result.stats.elapsed
            depths.append(result.depth)
        reached = "/".join(str(depth) for depth in depths)
        rate = nodes / elapsed if elapsed else 0.0
        print(f"{game.title:<24} {reached:>9} {nodes:>10,} {elapsed:>8.1f} {rate:>9,.0f}")


def fixed_positions(scale: float, only: str | None) -> None:
    """One row per fixed position and one total per game, each searched for its budget.

    The nodes and seconds are those of the last completed depth (a search's result
    counts up to the moment it was produced), so nodes a second compare fairly.
    """
    print(f"{'game':<24} {'ply':>4} {'depth':>5} {'nodes':>9} {'seconds':>8} {'nodes/s':>8}")
    for name, options, budget, texts in FIXED:
        if only is not None and only not in name:
            continue
        game = load_game(name, **options)
        nodes, elapsed, depths = 0, 0.0, []
        for text in texts:
            state = game.decode(text)
            result = Searcher(game).search(state, Limits(time=budget * scale))
            stats = result.stats
            nodes += stats.nodes
            elapsed += stats.elapsed
            depths.append(result.depth)
            rate = stats.nodes / stats.elapsed if stats.elapsed else 0.0
            print(
                f"{game.title:<24} {game.ply(state):>4} {result.depth:>5} {stats.nodes:>9,} "
                f"{stats.elapsed:>8.2f} {rate:>8,.0f}",
                flush=True,
            )
        mean = sum(depths) / len(depths)
        rate = nodes / elapsed if elapsed else 0.0
        label = f"{game.title}, all"
        print(f"{label:<24} {'':>4} {mean:>5.1f} {nodes:>9,} {elapsed:>8.2f} {rate:>8,.0f}")


def main() -> None:
    """Run the set of positions the options ask for."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per random position")
    parser.add_argument("--fixed", action="store_true", help="the fixed mid-game positions")
    parser.add_argument("--scale", type=float, default=1.0, help="times the move budget")
    parser.add_argument("--only", help="fixed positions of games whose name contains this")
    args = parser.parse_args()
    if args.fixed:
        fixed_positions(args.scale, args.only)
    else:
        random_openings(args.seconds)


if __name__ == "__main__":
    main()
