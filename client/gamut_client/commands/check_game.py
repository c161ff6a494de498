"""``gamut check-game``: run the conformance kit against an installed game.

An author installs their game package (``pip install -e .``) and runs this: every check
of :mod:`gamut_engine.testing` over every variant the game declares, each failure named
with what broke. The exit status is 0 only when the game conforms.
"""

from __future__ import annotations

import argparse
from typing import Any

from gamut_engine import GAMES
from gamut_engine.testing import check_game


def register(subparsers: Any) -> None:
    """Add the ``check-game`` subcommand."""
    parser = subparsers.add_parser(
        "check-game", help="check that an installed game keeps the rules engine's contract"
    )
    parser.add_argument("game", help="the game's registered name")
    parser.add_argument(
        "--playouts", type=int, default=6, help="random games per seeded check (default 6)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print every failure and the verdict; 0 when the game conforms, 1 otherwise."""
    if args.game not in GAMES:
        known = ", ".join(GAMES)
        raise SystemExit(
            f"gamut: no game {args.game!r} is installed (the games are {known}); "
            "install its package first, such as with pip install -e ."
        )
    report = check_game(args.game, playouts=args.playouts)
    print(report.text())
    return 0 if report.passed else 1
