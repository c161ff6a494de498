"""``gamut play``: the full-screen terminal client.

Registered as ``play = "gamut_client.commands.play:register"`` in the
``gamut.commands`` entry points; ``python -m gamut_client.tui`` runs the same.
"""

from __future__ import annotations

import argparse
import getpass
import logging
import os
import re
from collections.abc import Sequence
from typing import Any, Final

from gamut_client.commands.saved import add_identity_arguments, identity_file

DEFAULT_SERVER: Final = "ws://127.0.0.1:8080/ws"
"""The server played on unless told otherwise (``make run`` serves there)."""

NAME_LIMIT: Final = 24
"""Longest player name."""


def register(subparsers: Any) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser("play", help="play and watch games on a Gamut server")
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gamut play``."""
    parser.add_argument(
        "--server",
        default=os.environ.get("GAMUT_SERVER", DEFAULT_SERVER),
        help=f"server URL or host:port (default {DEFAULT_SERVER}, env GAMUT_SERVER)",
    )
    parser.add_argument(
        "--name", default=None, help="the name to play under (default: your login name)"
    )
    parser.add_argument("--token", default=None, help="an account's token, to play as its owner")
    add_identity_arguments(parser)
    parser.add_argument(
        "--log", metavar="FILE", default=None, help="write a debugging log of the session to FILE"
    )


def default_name() -> str:
    """A valid player name made from the login name (``player`` if nothing is left of it)."""
    try:
        login = getpass.getuser()
    except (KeyError, OSError):
        login = ""
    return clean_name(login)


def clean_name(text: str) -> str:
    """``text`` made into a valid player name: letters, digits, ``_.-``, at most 24."""
    name = re.sub(r"[^A-Za-z0-9_.-]", "", text).lstrip(".-")[:NAME_LIMIT]
    return name or "player"


def run(args: argparse.Namespace) -> int:
    """Run the client until the player quits; returns the exit status."""
    from gamut_client.tui.app import GamutApp

    if args.log:
        logging.basicConfig(
            filename=args.log,
            level=logging.DEBUG,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
    name = clean_name(args.name) if args.name else default_name()
    try:
        identities = identity_file(args, args.server, name)
        app = GamutApp(args.server, name, token=args.token, identities=identities)
    except ValueError as error:
        raise SystemExit(f"gamut play: {error}") from None
    return app.run() or 0


def main(argv: Sequence[str] | None = None) -> int:
    """``gamut play`` without the ``gamut`` front end."""
    parser = argparse.ArgumentParser(prog="gamut play", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))
