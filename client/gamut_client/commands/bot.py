"""``gamut bot``: run a bot on a Gamut server.

SPEC names the bot: ``random``, ``ai:LEVEL``, ``module:Class`` or ``file.py:Class``, or
an external program behind a bridge: ``gomocup:COMMAND``, ``line:COMMAND`` or
``seed5:COMMAND``. With ``--game`` the bot seeks games of it; it always accepts
challenges addressed to it, and with ``--accept`` other players' open seeks too.
``python -m gamut_client.commands.bot`` runs the same command on its own.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, Final

from gamut_client.addresses import DEFAULT_SERVER
from gamut_client.commands.common import add_option_arguments
from gamut_client.commands.saved import add_identity_arguments
from gamut_engine import GAMES

DESCRIPTION: Final = (__doc__ or "").split("\n\n")[1].replace("``", "")
"""The command's description for ``--help``."""

SPEC_HELP: Final = (
    "random, ai:LEVEL (or any engine player spec), module:Class or file.py:Class, "
    "or an external program: gomocup:COMMAND (a Gomocup engine, Connect Five), "
    "line:COMMAND (Gamut's line protocol, any game), seed5:COMMAND (a Connect Five program "
    "that reads a board and prints one move)"
)
"""What a spec may be."""


def register(subparsers: Any) -> None:
    """Add the ``bot`` subcommand."""
    parser = subparsers.add_parser(
        "bot", help="run a bot on a Gamut server", description=DESCRIPTION
    )
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gamut bot``."""
    parser.add_argument("spec", metavar="SPEC", help=SPEC_HELP)
    parser.add_argument(
        "--server",
        default=os.environ.get("GAMUT_SERVER", DEFAULT_SERVER),
        help=f"server URL (default {DEFAULT_SERVER}, env GAMUT_SERVER)",
    )
    parser.add_argument("--name", required=True, help="the bot's name on the server")
    parser.add_argument(
        "--token", help="the bot account's token (else the guest token saved for NAME, if any)"
    )
    add_identity_arguments(parser)
    seeking = parser.add_argument_group("games to seek")
    seeking.add_argument("--game", choices=list(GAMES), help="seek games of this game")
    add_option_arguments(seeking)
    seeking.add_argument(
        "--time",
        help="untimed, move:SECONDS or fischer:SECONDS+INCREMENT "
        "(default: the game's standard limit)",
    )
    seeking.add_argument(
        "--opponent", default="anyone", help="anyone (default), ai:LEVEL or player:NAME"
    )
    seeking.add_argument("--side", type=int, choices=(0, 1), help="the side to ask for")
    seeking.add_argument("--rated", action="store_true", help="seek rated games")
    playing = parser.add_argument_group("playing")
    playing.add_argument("--accept", action="store_true", help="accept others' open seeks too")
    playing.add_argument(
        "--no-challenges", action="store_true", help="refuse challenges addressed to the bot"
    )
    playing.add_argument("--games", type=int, help="stop after this many games (default: never)")
    playing.add_argument("--parallel", type=int, default=1, help="games at once (default 1)")
    playing.add_argument("--ladder", metavar="POOL", help="join this ladder pool")
    playing.add_argument(
        "--tournament",
        metavar="ID",
        help="enter this tournament (an account's bot); the server pairs its games",
    )
    playing.add_argument(
        "--board",
        choices=("scheme", "rows"),
        default="scheme",
        help="seed5: write boards as Scheme lists (default) or plain rows",
    )
    playing.add_argument("-v", "--verbose", action="store_true", help="log every message")


def run(args: argparse.Namespace) -> int:
    """Run the bot until its games are over; returns the exit status. The bot machinery is
    imported here, when the command runs, not whenever ``gamut`` lists its commands."""
    from gamut_client.commands.bot_run import run_bot_command

    return run_bot_command(args)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gamut_client.commands.bot``: the ``bot`` command on its own."""
    parser = argparse.ArgumentParser(prog="gamut bot", description=DESCRIPTION)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
