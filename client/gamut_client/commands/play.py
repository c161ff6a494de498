"""``gamut play``: the full-screen terminal client.

Registered as ``play = "gamut_client.commands.play:register"`` in the
``gamut.commands`` entry points; ``python -m gamut_client.tui`` runs the same.
"""

from __future__ import annotations

import argparse
import getpass
import logging
import sys
from collections.abc import Sequence
from typing import Any

from gamut_client.commands.account import add_server_argument, choose
from gamut_client.commands.saved import add_identity_arguments, identity_file
from gamut_client.identities import IdentityFile


def register(subparsers: Any) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser("play", help="play and watch games on a Gamut server")
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gamut play``."""
    add_server_argument(parser)
    parser.add_argument(
        "--name",
        default=None,
        help="the name to play under: ASCII letters, digits, '_', '.' and '-', at most 24 "
        "(default: your login name)",
    )
    parser.add_argument("--token", default=None, help="an account's token, to play as its owner")
    parser.add_argument(
        "--guest",
        action="store_true",
        help="play as a guest without asking, even when signed in (gamut login)",
    )
    add_identity_arguments(parser)
    parser.add_argument(
        "--log", metavar="FILE", default=None, help="write a debugging log of the session to FILE"
    )


def login_name() -> str:
    """The login name, or ``""`` when the system has none to give."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""


def chosen_name(given: str | None) -> str:
    """The name to play under: ``--name``, else the login name; refused (never rewritten)
    with a sentence saying what is allowed when the protocol does not allow it."""
    from gamut_client.names import (
        NAME_RULE,
        InvalidNameError,
        check_name,
        is_valid_name,
        suggest_name,
    )

    if given is not None:
        return check_name(given)
    login = login_name()
    if login and is_valid_name(login):
        return login
    suggestion = suggest_name(login)
    example = f" (such as --name {suggestion})" if suggestion else ""
    raise InvalidNameError(
        f"your login name {login!r} cannot be used as is: choose one with --name{example}; "
        f"{NAME_RULE}"
    )


def run(args: argparse.Namespace) -> int:
    """Run the client until the player quits; returns the exit status."""
    from gamut_client.tui.app import GamutApp

    if args.log:
        logging.basicConfig(
            filename=args.log,
            level=logging.DEBUG,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
    try:
        name = account_name(args) or chosen_name(args.name)
        identities = identity_file(args, args.server, name)
        app = GamutApp(args.server, name, token=args.token, identities=identities)
    except ValueError as error:
        raise SystemExit(f"gamut play: {error}") from None
    return app.run() or 0


def account_name(args: argparse.Namespace) -> str | None:
    """The account to play as: the one ``gamut login`` signed in to on this server (when
    no other name is asked for), or, for a person at a terminal without one, the one they
    sign in to or make now; ``None`` to play as a guest."""
    from gamut_protocol.common import name_key

    if args.guest or args.token or args.no_save:
        return None
    identities = IdentityFile()
    kept = identities.session(args.server)
    if kept is not None and (args.name is None or name_key(args.name) == name_key(kept[0])):
        return kept[0]
    if args.name is not None or not sys.stdin.isatty():
        return None
    try:
        return choose(args.server, identities)
    except EOFError:
        return None


def main(argv: Sequence[str] | None = None) -> int:
    """``gamut play`` without the ``gamut`` front end."""
    parser = argparse.ArgumentParser(prog="gamut play", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))
