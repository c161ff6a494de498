"""Connect Five 15×15 openings that Gamut's own search scores near even.

Draws openings of ``--plies`` random stones within two cells of the centre (seeded),
searches each for ``--seconds`` as the AI would, and keeps those whose score for the
side to move lies within ``--margin`` of 0 and which neither side has won by force
(no proven win either way), until ``--count`` are found. Prints them one a line, moves
separated by spaces, the format ``gamut match --openings`` and
``bench/connect5_engine.py --openings`` read::

    python bench/connect5_openings.py --count 8 > openings.txt

A near-even score by Gamut's search is a weaker judge than a stronger engine's; the
openings only keep the first mover's large advantage in freestyle out of the games.
"""

from __future__ import annotations

import argparse
import random

from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.search import Limits, Searcher, is_decisive


def random_opening(game: ConnectFiveGame, plies: int, rng: random.Random) -> list[int]:
    """``plies`` distinct cells within two of the centre."""
    centre = game.size // 2
    cells: list[int] = []
    while len(cells) < plies:
        cell = (centre + rng.randint(-2, 2)) * game.size + centre + rng.randint(-2, 2)
        if cell not in cells:
            cells.append(cell)
    return cells


def main() -> None:
    """Print ``--count`` openings Gamut's search calls near even."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=8, help="openings to find (8)")
    parser.add_argument("--plies", type=int, default=4, help="stones in an opening (4)")
    parser.add_argument("--seconds", type=float, default=2.0, help="search of each (2)")
    parser.add_argument("--margin", type=int, default=60, help="largest |score| kept (60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the draws (1)")
    args = parser.parse_args()
    game = ConnectFiveGame(size=15)
    rng = random.Random(args.seed)
    found = 0
    while found < args.count:
        cells = random_opening(game, args.plies, rng)
        state = game.initial_state()
        for cell in cells:
            state = game.play(state, cell)
        result = Searcher(game).search(state, Limits(time=args.seconds))
        if is_decisive(result.score) or abs(result.score) > args.margin:
            continue
        moves = " ".join(game.format_move(cell) for cell in cells)
        print(f"{moves}  # {result.score:+d} at depth {result.depth}", flush=True)
        found += 1


if __name__ == "__main__":
    main()
