"""``gamut move connect5``: the Connect Five single-move program.

Reads one board from standard input (the original Scheme list of lists, or plain rows of
``X``, ``O`` and ``-``), plays ``X`` and prints its move as ``(col row)``, both counted
from 0, row 0 at the top. It answers within the single-move programs' N/5 seconds for a board of N
cells, or ``--time`` seconds; a fifth of that is left for starting up and printing.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from gamut_client.commands.standalone import run_alone
from gamut_engine.adapters.connect5_move import choose_seed_move, read_board, time_limit

SEARCH_SHARE = 0.8
"""Share of the move's time the search may take; the rest covers start-up and output."""

MIN_SEARCH_TIME = 0.05
"""Seconds the search always gets, however little is left."""


def register(subparsers: Any) -> None:
    """Add the ``move`` subcommand."""
    parser = subparsers.add_parser(
        "move", help="single-move programs: read a position on standard input and print one move"
    )
    parser.add_argument(
        "game", choices=["connect5"], help="the game (connect5: a single-move program)"
    )
    parser.add_argument(
        "--time", type=float, metavar="S", help="seconds for the move (default: cells / 5)"
    )
    parser.add_argument("--depth", type=int, metavar="D", help="search exactly D plies")
    parser.add_argument(
        "--stats", action="store_true", help="print the search's statistics on standard error"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Read the board, print the move; 2 with the reason for a board that cannot be played."""
    started = time.perf_counter()
    text = sys.stdin.read()
    try:
        seconds = search_seconds(text, args.time, started) if args.depth is None else args.time
        answer = choose_seed_move(text, seconds=seconds, depth=args.depth)
    except ValueError as error:
        print(f"gamut move: {error}", file=sys.stderr)
        return 2
    print(answer, flush=True)
    if args.stats:
        print(answer.result.stats.format(), file=sys.stderr)
    return 0


def search_seconds(text: str, limit: float | None, started: float) -> float:
    """The search's share of the move's time, less what reading the board took."""
    if limit is None:
        game, _ = read_board(text)
        limit = time_limit(game)
    if not limit > 0:
        raise ValueError(f"the time must be a positive number of seconds, not {limit}")
    spent = time.perf_counter() - started
    return max(MIN_SEARCH_TIME, limit * SEARCH_SHARE - spent)


if __name__ == "__main__":
    sys.exit(run_alone("move", register))
