"""AI levels against each other: does every level beat the one below it?

Plays each adjacent pair of levels over several games, each level once with each colour
from every start: a few random plies (``--opening``) or the openings of a file
(``--openings``, pair ``i`` of games playing opening ``i``, as ``gamut match
--openings`` does), so that the deterministic levels do not repeat one game. The games
are those of ``gamut match``, each player warmed up before its game. Prints the
stronger level's wins, draws and losses, its score with a 95% Wilson interval, the mean
depth each level completed (a level whose time runs out before its depth plays a
shallower move than its number promises), and how many games the side to move after
the opening won, whichever level it was (a game where that side wins nearly always
squeezes every score towards 50%). ``--share 5=1/12`` plays level 5 with another share
of the budget, to try a share before changing the table. Not part of the test run.
Usage: ``python bench/levels.py connect5 --size 9 --games 6 --budget 1 --pairs 4,5``, or
``python bench/levels.py connect5 --size 15 --games 48 --budget 0.5 --openings
bench/openings/connect5_15.txt``.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from gamut_engine import load_game
from gamut_engine.match import MatchSpec, Tally, read_openings, run_match
from gamut_engine.match_score import match_score, wilson_interval
from gamut_engine.search import levels


def mean_depth(tally: Tally) -> float:
    """Mean depth the tally's searches completed, 0 without any search."""
    return tally.depth / tally.searches if tally.searches else 0.0


def pair_spec(
    game: str, options: dict[str, Any], weaker: int, args: argparse.Namespace
) -> MatchSpec:
    """The match of level ``weaker + 1`` (player A) against level ``weaker`` (player B):
    each opening played twice, each level once with each colour."""
    budget = f"budget={args.budget:g}"
    return MatchSpec(
        game,
        (f"ai:{weaker + 1},{budget}", f"ai:{weaker},{budget}"),
        games=args.games,
        options=options,
        seed=args.seed,
        opening_plies=0 if args.openings else args.opening,
        openings=args.openings,
    )


def match(spec: MatchSpec) -> tuple[tuple[int, int, int], tuple[float, float], int]:
    """Wins, draws and losses of player A, the mean depths A and B completed, and the
    games won by the side to move after the opening (whichever level had it)."""
    result = run_match(spec)
    game = spec.load_game()
    mover_wins = 0
    for record in result.records:
        if record.winner is not None:
            winning_side = record.a_side if record.winner == 0 else 1 - record.a_side
            mover_wins += winning_side == game.to_move(spec.opening(game, record.index)[0])
    depths = (mean_depth(result.tally(0)), mean_depth(result.tally(1)))
    return (result.wins, result.draws, result.losses), depths, mover_wins


def share_levels(shares: list[str]) -> None:
    """Give each ``LEVEL=SHARE`` level that share of the budget for this run."""
    table = list(levels.LEVELS)
    for text in shares:
        number, _, share = text.partition("=")
        level = levels.get_level(int(number))
        table[level.number - 1] = dataclasses.replace(level, time_share=float(Fraction(share)))
    levels.LEVELS = tuple(table)


def main() -> None:
    """Print one line per pair of adjacent levels: the stronger level's wins, draws, losses."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--size", type=int)
    parser.add_argument("--n", type=int)
    parser.add_argument("--games", type=int, default=6, help="games per pair (default 6)")
    parser.add_argument("--budget", type=float, default=1.0, help="level-8 seconds a move")
    parser.add_argument("--opening", type=int, default=2, help="random plies first")
    parser.add_argument(
        "--openings",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="instead of random plies, the openings of FILE, one a line ('#' comments), "
        "each played with both colours (repeatable: the files' openings in turn)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the openings and noise")
    parser.add_argument(
        "--pairs", default="2,3,4,5,6,7,8", help="the stronger level of each pair (2-8)"
    )
    parser.add_argument(
        "--share", action="append", default=[], help="LEVEL=SHARE of the budget, e.g. 5=1/12"
    )
    args = parser.parse_args()
    args.openings = tuple(
        line for path in args.openings for line in read_openings(path.read_text())
    )
    share_levels(args.share)
    options = {k: v for k, v in (("size", args.size), ("n", args.n)) if v is not None}
    game = load_game(args.game, **options)
    shares = "".join(f", level {text}" for text in args.share)
    starts = f"{len(args.openings)} openings" if args.openings else f"{args.opening} random plies"
    print(
        f"{game.title}: budget {args.budget:g} s, {args.games} games a pair from {starts}{shares}",
        flush=True,
    )
    for stronger in (int(part) for part in args.pairs.split(",")):
        started = time.perf_counter()
        spec = pair_spec(args.game, options, stronger - 1, args)
        (wins, draws, losses), (strong, weak), mover_wins = match(spec)
        seconds = time.perf_counter() - started
        interval = wilson_interval(wins, draws, losses)
        print(
            f"level {stronger} vs {stronger - 1}: {wins}-{draws}-{losses}, "
            f"{match_score(wins, draws, losses):.0%} ({interval.low:.0%}-{interval.high:.0%}), "
            f"depth {strong:.1f} vs {weak:.1f}, first to move won {mover_wins}"
            f"  ({seconds:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
