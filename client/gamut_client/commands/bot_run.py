"""What ``gamut bot`` does once its command line is read: load the bot, make its plan,
connect and play (imported only when the command runs; see :mod:`gamut_client.cli`)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from gamut_client.bots.base import Bot
from gamut_client.bots.launch import print_game, run_bot, seek_terms, unreachable
from gamut_client.bots.plan import Plan, PlanError
from gamut_client.bots.runner import Summary
from gamut_client.bots.specs import load_bot
from gamut_client.commands.common import game_options
from gamut_client.commands.saved import identity_file
from gamut_client.identities import IdentityFile
from gamut_client.link import ConnectError, HelloRefusedError


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
        tournament=args.tournament,
    )


def run_bot_command(args: argparse.Namespace) -> int:
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
    except ConnectError as error:
        print(f"gamut bot: {unreachable(error, 'with --server')}", file=sys.stderr)
        return 1
    except PlanError as error:
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
