"""``gamut perft``: count move paths from the start and time move generation."""

from __future__ import annotations

import argparse
import time
from typing import Any

from gamut_client.commands.common import add_game_arguments, game_from_args
from gamut_engine import perft


def register(subparsers: Any) -> None:
    """Add the ``perft`` subcommand."""
    parser = subparsers.add_parser(
        "perft", help="count move paths from the start position, depth by depth"
    )
    add_game_arguments(parser)
    parser.add_argument("--depth", type=int, default=3, help="deepest depth to count (default 3)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the leaf count and the speed at every depth from 1 to ``--depth``."""
    game = game_from_args(args)
    state = game.initial_state()
    print(f"{game.title}, {game.sides[game.to_move(state)]} to move")
    print(f"{'depth':>5} {'leaves':>14} {'seconds':>9} {'leaves/s':>12}")
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        leaves = perft(game, state, depth)
        seconds = time.perf_counter() - started
        rate = leaves / seconds if seconds > 0 else float("inf")
        print(f"{depth:>5} {leaves:>14,} {seconds:>9.3f} {rate:>12,.0f}")
    return 0
