"""Engine speed: move generation and application per game, and perft throughput.

Prints a table; not part of the test run. Usage:
``python bench/engine.py [--seconds S] [--only NAME]``. An older engine (an export of an
earlier commit, first on ``PYTHONPATH``) runs the same rows, so that both are measured in
one run::

    PYTHONPATH=/tmp/gamut-before/engine python bench/engine.py --only connect5
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from gamut_engine import AnyGame, load_game, perft

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("network", {}, 3),
    ("network", {"rules": "2015"}, 3),
    ("connect5", {"size": 15}, 2),
    ("loa", {"size": 5}, 3),
    ("loa", {"size": 6}, 3),
    ("loa", {"size": 8}, 3),
    ("crusher", {"n": 3}, 3),
    ("crusher", {"n": 4}, 3),
]


def playout_rate(game: AnyGame, seconds: float) -> tuple[float, float]:
    """Positions per second through random games: (legal_moves calls/s, play calls/s)."""
    rng = random.Random(7)
    generated = played = 0
    generate_time = play_time = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        state = game.initial_state()
        while game.outcome(state) is None:
            started = time.perf_counter()
            moves = game.legal_moves(state)
            middle = time.perf_counter()
            state = game.play(state, rng.choice(moves))
            generate_time += middle - started
            play_time += time.perf_counter() - middle
            generated += 1
            played += 1
    return generated / generate_time, played / play_time


def perft_rate(game: AnyGame, depth: int) -> tuple[int, float]:
    """Leaves at ``depth`` from the start and leaves per second."""
    started = time.perf_counter()
    leaves = perft(game, game.initial_state(), depth)
    return leaves, leaves / (time.perf_counter() - started)


def main() -> None:
    """Print one row per game configuration."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="playout time per game")
    parser.add_argument("--only", help="only the games whose registry name this is")
    args = parser.parse_args()
    header = (
        f"{'game':<24} {'movegen/s':>10} {'play/s':>10} {'perft':>6} {'leaves':>9} {'leaves/s':>9}"
    )
    print(header)
    for name, options, depth in CONFIGS:
        if args.only is not None and name != args.only:
            continue
        game = load_game(name, **options)
        generate, play = playout_rate(game, args.seconds)
        leaves, rate = perft_rate(game, depth)
        speeds = f"{generate:>10,.0f} {play:>10,.0f}"
        print(f"{game.title:<24} {speeds} {depth:>6} {leaves:>9,} {rate:>9,.0f}")


if __name__ == "__main__":
    main()
