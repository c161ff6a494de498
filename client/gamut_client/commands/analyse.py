"""``gamut analyse GAME_ID``: the AI's analysis of a finished game, as an annotated move list.

Asks the server for the analysis (``POST /api/games/{id}/analysis``), shows how far it
has got while it runs, then prints every move with the position it made, the marks
(``?!`` inaccuracy, ``?`` mistake, ``??`` blunder) with the AI's better move, the forced
wins found and missed, and each side's summary. ``--account NAME --token TOKEN`` (or
``GAMUT_TOKEN``) signs the request with an account. ``python -m
gamut_client.commands.analyse`` runs the same command.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from gamut_client.addresses import DEFAULT_SERVER


def register(subparsers: Any) -> None:
    """Add the ``analyse`` subcommand."""
    parser = subparsers.add_parser(
        "analyse", help="the AI's analysis of a finished game", description=__doc__
    )
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``gamut analyse``."""
    parser.add_argument("game_id", metavar="GAME_ID", help="the finished game's id")
    parser.add_argument(
        "--server",
        default=os.environ.get("GAMUT_SERVER", DEFAULT_SERVER),
        help=f"server URL, ws:// or http:// (default {DEFAULT_SERVER}, env GAMUT_SERVER)",
    )
    parser.add_argument("--account", help="sign the request as this account")
    parser.add_argument(
        "--token", default=os.environ.get("GAMUT_TOKEN"), help="the account's token"
    )


def run(args: argparse.Namespace) -> int:
    """Wait for the analysis and print it; returns the exit status."""
    from gamut_client.commands.analyse_run import analyse_game

    return analyse_game(args)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gamut_client.commands.analyse``: the ``analyse`` command on its own."""
    parser = argparse.ArgumentParser(prog="gamut analyse", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
