"""Start positions for Network matches that neither side begins lost.

Not part of the test run. Writes an openings file for ``gamut match --openings FILE``
(one opening a line, its moves in the game's notation, the score after ``#``)::

    python bench/network_openings.py even --rules cs61b --count 60 > even.txt
    python bench/network_openings.py steps --rules 2015 --count 60 > steps.txt

``check FILE`` searches every opening of a file again at ``--depth`` and fails if one
leaves the game over or scores outside ``--margin`` (``--rules`` as the file's)::

    python bench/network_openings.py check bench/openings/network_steps_cs61b.txt --margin 60

``even`` draws openings of ``--plies`` uniformly random moves, as ``gamut match
--opening`` does; ``steps`` plays every one of the 20 adds (so the games start in the
step phase), each move drawn from the best ``--choices`` of the game's own move
ordering. Either keeps a position only if a search of exactly ``--depth`` plies scores
it within ``--margin`` of even for the side to move, so that the side to move is not
simply won or lost; ``gamut match`` then plays each opening twice, colours swapped.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from pathlib import Path

from gamut_engine.games.network import NetworkGame
from gamut_engine.games.network_board import CHIPS
from gamut_engine.match import read_openings, written_opening
from gamut_engine.search import Limits, Searcher

ADDS = 2 * CHIPS
"""Plies of the add phase: every chip of both sides placed."""
TRIES = 200
"""Candidates drawn for each opening kept, at most, before giving up."""


def random_moves(game: NetworkGame, plies: int, rng: random.Random) -> list[int] | None:
    """``plies`` uniformly random legal moves from the start, or ``None`` if the game ends."""
    state, moves = game.initial_state(), []
    for _ in range(plies):
        move = rng.choice(game.legal_moves(state))
        moves.append(move)
        state = game.play(state, move)
        if game.outcome(state) is not None:
            return None
    return moves


def ordered_adds(game: NetworkGame, choices: int, rng: random.Random) -> list[int] | None:
    """Every add of both sides, each drawn from the best ``choices`` of the move ordering,
    or ``None`` if the game ends before the steps."""
    state, moves = game.initial_state(), []
    for _ in range(ADDS):
        move = rng.choice(game.search_moves(state)[:choices])
        moves.append(move)
        state = game.play(state, move)
        if game.outcome(state) is not None:
            return None
    return moves


def score(game: NetworkGame, moves: list[int], depth: int) -> int:
    """The value of the position after ``moves`` for the side to move, searched ``depth`` plies."""
    state = game.initial_state()
    for move in moves:
        state = game.play(state, move)
    return Searcher(game).search(state, Limits(depth=depth)).score


def balanced(args: argparse.Namespace, game: NetworkGame) -> Iterator[tuple[list[int], int]]:
    """Openings (and their scores) within the margin, as many as asked for."""
    rng = random.Random(args.seed)
    kept, seen = 0, set()
    for _ in range(args.count * TRIES):
        if kept == args.count:
            return
        if args.command == "even":
            moves = random_moves(game, args.plies, rng)
        else:
            moves = ordered_adds(game, args.choices, rng)
        if moves is None or tuple(moves) in seen:
            continue
        seen.add(tuple(moves))
        value = score(game, moves, args.depth)
        if abs(value) <= args.margin:
            kept += 1
            yield moves, value


def check(args: argparse.Namespace, game: NetworkGame) -> int:
    """Search every opening of ``args.file`` again; 1 if any is not near even."""
    bad = 0
    openings = read_openings(Path(args.file).read_text())
    for number, texts in enumerate(openings, 1):
        state, moves = written_opening(game, texts)
        value = score(game, list(moves), args.depth)
        level = abs(value) <= args.margin and game.outcome(state) is None
        bad += not level
        print(f"{number:>3} {value:+6d}  {'ok' if level else 'NOT LEVEL'}")
    print(f"{len(openings) - bad} of {len(openings)} within {args.margin} at depth {args.depth}")
    return 1 if bad else 0


def main() -> int:
    """Print the openings file, or check one."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("command", choices=("even", "steps", "check"))
    parser.add_argument("file", nargs="?", help="the openings file (check)")
    parser.add_argument("--rules", default="cs61b", choices=("cs61b", "2015"))
    parser.add_argument("--count", type=int, default=60, help="openings to keep")
    parser.add_argument("--plies", type=int, default=4, help="random plies (even)")
    parser.add_argument("--choices", type=int, default=4, help="best moves drawn from (steps)")
    parser.add_argument("--depth", type=int, default=2, help="plies of the judging search")
    parser.add_argument("--margin", type=int, default=40, help="largest score kept")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = NetworkGame(rules=args.rules)
    if args.command == "check":
        if args.file is None:
            parser.error("check needs the openings file")
        return check(args, game)
    print(f"# Network {args.rules}: python bench/network_openings.py {' '.join(sys.argv[1:])}")
    for moves, value in balanced(args, game):
        text = " ".join(game.format_move(move) for move in moves)
        print(f"{text}  # {value:+d} at depth {args.depth}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
