"""Arguments shared by the subcommands that pick a game."""

from __future__ import annotations

import argparse
from typing import Any

from gamut_engine import GAMES, AnyGame, load_game


def add_game_arguments(parser: argparse.ArgumentParser, *, optional: bool = False) -> None:
    """Add the GAME argument and the game options (--size, --n, --rules, --max-plies)."""
    parser.add_argument(
        "game",
        nargs="?" if optional else None,
        default="network" if optional else None,
        choices=sorted(GAMES),
        help="which game (default: network)" if optional else "which game",
    )
    parser.add_argument("--size", type=int, help="board size (connect5: 5-19, loa: 5, 6 or 8)")
    parser.add_argument("--n", type=int, help="crusher: cells on each side of the hex board")
    parser.add_argument("--rules", help="network: cs61b (default) or 2015")
    parser.add_argument("--max-plies", type=int, help="plies after which the game is drawn")


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options given on the command line, by their ``load_game`` names."""
    names = {"size": "size", "n": "n", "rules": "rules", "max_plies": "max_plies"}
    return {key: getattr(args, attr) for attr, key in names.items() if getattr(args, attr)}


def game_from_args(args: argparse.Namespace) -> AnyGame:
    """Load the game the arguments name; raises ``SystemExit`` with the reason if it cannot."""
    try:
        return load_game(args.game, **game_options(args))
    except ValueError as error:
        raise SystemExit(f"gamut: {error}") from None
