"""Connect Five 15×15 openings that a fixed-depth search scores near even.

Not part of the test run. ``make`` draws openings of ``--plies`` random stones within
two cells of the centre (seeded), searches each at exactly ``--depth`` plies and at two
plies less, and keeps those that both searches score within ``--margin`` of 0 for the
side to move and that neither side has won by force, until ``--count`` are found. Both
depths are even: the evaluation rewards the side that made the last move of a line
with its threats, so an odd depth (the side to move moving last) scores nearly every
opening around +1000 to +2000 and says nothing of balance. It prints them
one a line, moves separated by spaces, the score after ``#``: the format ``gamut match
--openings``, ``gamut tournament --openings`` and ``bench/connect5_engine.py
--openings`` read (see docs/openings.md). ``check`` searches every opening of a file
again and prints its scores, failing if one is not a running game or lies outside the
margin::

    python bench/connect5_openings.py make --count 24 > bench/openings/connect5_15.txt
    python bench/connect5_openings.py check bench/openings/connect5_15.txt

A near-even score by Gamut's search is a weaker judge than a stronger engine's; the
openings only keep the first mover's large advantage in freestyle out of the games.
Fixed depths make the files reproducible: the same seed gives the same openings on any
machine, however loaded.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.games.connect5_board import Connect5State
from gamut_engine.match import read_openings, written_opening
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


def scores(game: ConnectFiveGame, state: Connect5State, depth: int) -> tuple[int, int]:
    """The scores for the side to move at ``depth - 2`` and ``depth`` plies."""
    found = []
    for plies in (depth - 2, depth):
        found.append(Searcher(game).search(state, Limits(depth=plies)).score)
    return found[0], found[1]


def level(values: tuple[int, int], margin: int) -> bool:
    """Whether both scores are near even and neither is a forced result."""
    return all(not is_decisive(value) and abs(value) <= margin for value in values)


def make(args: argparse.Namespace, game: ConnectFiveGame) -> int:
    """Print ``--count`` openings the search calls near even."""
    rng = random.Random(args.seed)
    print(f"# Connect Five 15x15: python bench/connect5_openings.py {' '.join(sys.argv[1:])}")
    found, seen = 0, set()
    while found < args.count:
        cells = random_opening(game, args.plies, rng)
        if frozenset(cells) in seen:
            continue
        seen.add(frozenset(cells))
        state = game.initial_state()
        for cell in cells:
            state = game.play(state, cell)
        values = scores(game, state, args.depth)
        if not level(values, args.margin) or game.outcome(state) is not None:
            continue
        moves = " ".join(game.format_move(cell) for cell in cells)
        depths = f"depths {args.depth - 2} / {args.depth}"
        print(f"{moves}  # {values[0]:+d} / {values[1]:+d} at {depths}")
        sys.stdout.flush()
        found += 1
    return 0


def check(args: argparse.Namespace, game: ConnectFiveGame) -> int:
    """Search every opening of the file again; 1 if any is not near even."""
    bad = 0
    openings = read_openings(Path(args.file).read_text())
    for number, moves in enumerate(openings, 1):
        state, _ = written_opening(game, moves)
        values = scores(game, state, args.depth)
        verdict = "ok" if level(values, args.margin) else "NOT LEVEL"
        bad += verdict != "ok"
        print(f"{number:>3} {' '.join(moves):<24} {values[0]:+6d} {values[1]:+6d}  {verdict}")
    depths = f"depths {args.depth - 2} and {args.depth}"
    print(f"{len(openings) - bad} of {len(openings)} level at {depths}")
    return 1 if bad else 0


def main() -> int:
    """Make or check an openings file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("make", "check"))
    parser.add_argument("file", nargs="?", help="the openings file (check)")
    parser.add_argument("--count", type=int, default=24, help="openings to find (24)")
    parser.add_argument("--plies", type=int, default=4, help="stones in an opening (4)")
    parser.add_argument("--depth", type=int, default=6, help="judging search's plies, even (6)")
    parser.add_argument("--margin", type=int, default=60, help="largest |score| kept (60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the draws (1)")
    args = parser.parse_args()
    game = ConnectFiveGame(size=15)
    if args.depth < 2 or args.depth % 2:
        parser.error("--depth must be even and at least 2")
    if args.command == "check":
        if args.file is None:
            parser.error("check needs the openings file")
        return check(args, game)
    return make(args, game)


if __name__ == "__main__":
    sys.exit(main())
