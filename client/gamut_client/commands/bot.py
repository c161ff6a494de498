"""``gamut bot``: run a bot on a Gamut server.

SPEC names the bot: ``random``, ``ai:LEVEL``, ``module:Class`` or ``file.py:Class``, or
an external program behind a bridge: ``gomocup:COMMAND``, ``line:COMMAND`` or
``seed5:COMMAND``. With ``--game`` the bot seeks games of it; it always accepts
challenges addressed to it, and with ``--accept`` other players' open seeks too.
``python -m gamut_client.commands.bot`` runs the same command on its own.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from typing import Any, Final

from gamut_client.bots.base import Bot
from gamut_client.bots.launch import print_game, run_bot, seek_terms
from gamut_client.bots.plan import Plan, PlanError
from gamut_client.bots.runner import Summary
from gamut_client.bots.specs import SPEC_HELP, load_bot
from gamut_client.commands.common import add_option_arguments, game_options
from gamut_client.commands.saved import add_identity_arguments, identity_file
from gamut_client.identities import IdentityFile
from gamut_client.link import ConnectError, HelloRefusedError
from gamut_engine import GAMES

DESCRIPTION: Final = (__doc__ or "").split("\n\n")[1].replace("``", "")
"""The command's description for ``--help``."""

DEFAULT_SERVER: Final = "ws://127.0.0.1:8080/ws"
"""The server a bot connects to unless told otherwise (or ``GAMUT_SERVER`` is set)."""


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
        "--board",
        choices=("scheme", "rows"),
        default="scheme",
        help="seed5: write boards as Scheme lists (default) or plain rows",
    )
    playing.add_argument("-v", "--verbose", action="store_true", help="log every message")


def plan_from_args(args: argparse.Namespace) -> Plan:
    """The bot's plan from the command line; ``ValueError`` for a bad combination."""
    terms = None
    if args.game is not None:
        terms = seek_terms(
            args.game,
            game_options(args),
            time_control=args.time,
            opponent=args.opponent,
            side=args.side,
            rated=args.rated,
        )
    return Plan(
        seek=terms,
        accept_open=args.accept,
        accept_challenges=not args.no_challenges,
        only_game=args.game if args.accept else None,
        games=args.games,
        parallel=args.parallel,
        ladder=args.ladder,
    )


def run(args: argparse.Namespace) -> int:
    """Run the bot until its games are over; returns the exit status."""
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        bot = load_bot(args.spec, board=args.board)
        plan = plan_from_args(args)
        identities = None if args.token else identity_file(args, args.server, args.name)
    except ValueError as error:
        print(f"gamut bot: {error}", file=sys.stderr)
        return 2
    try:
        asyncio.run(_run(bot, args, plan, identities))
    except HelloRefusedError as error:
        print(f"gamut bot: {error}{_token_hint(args, error)}", file=sys.stderr)
        return 1
    except (ConnectError, PlanError) as error:
        print(f"gamut bot: {error}", file=sys.stderr)
        return 1
    return 0


async def _run(
    bot: Bot, args: argparse.Namespace, plan: Plan, identities: IdentityFile | None
) -> Summary:
    """Connect and play, keeping the guest token in ``identities`` if given."""
    return await run_bot(
        bot,
        args.server,
        args.name,
        token=args.token,
        plan=plan,
        identities=identities,
        on_game_end=print_game,
        stop_on_signals=True,
    )


def _token_hint(args: argparse.Namespace, error: HelloRefusedError) -> str:
    """A word on the saved token when the server refused it."""
    if error.error.code != "bad_token" or args.token or args.no_save:
        return ""
    return " (the token saved for this name was refused: --forget drops it)"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gamut_client.commands.bot``: the ``bot`` command on its own."""
    parser = argparse.ArgumentParser(prog="gamut bot", description=DESCRIPTION)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
