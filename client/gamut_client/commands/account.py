"""``gamut login`` and ``gamut logout``: a person's account on a Gamut server.

``gamut login`` asks for the account's name and password (``--new`` makes the account
first), signs in over HTTP and keeps the session's secret, never the password, with the
guest tokens (see :mod:`gamut_client.identities`), so that ``gamut play`` plays as the
account from then on. ``gamut logout`` ends that session on the server and forgets it.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Callable
from typing import Any

from gamut_client.addresses import DEFAULT_SERVER
from gamut_client.http_api import ApiError, call, http_base
from gamut_client.identities import IdentityFile

Ask = Callable[[str], str]
"""Asks a question and returns the answer typed."""


class SignInFailedError(Exception):
    """Signing in or up did not work; the message says why."""


def register_login(subparsers: Any) -> None:
    """Add the ``login`` subcommand."""
    login = subparsers.add_parser(
        "login", help="sign in to your account (or make one with --new)", description=__doc__
    )
    add_server_argument(login)
    login.add_argument("--name", default=None, help="the account's name (asked if left out)")
    login.add_argument("--new", action="store_true", help="make the account first")
    login.set_defaults(handler=run_login)


def register_logout(subparsers: Any) -> None:
    """Add the ``logout`` subcommand."""
    logout = subparsers.add_parser("logout", help="sign out of your account on a server")
    add_server_argument(logout)
    logout.set_defaults(handler=run_logout)


def add_server_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--server`` option."""
    parser.add_argument(
        "--server",
        default=os.environ.get("GAMUT_SERVER", DEFAULT_SERVER),
        help=f"server URL or host:port (default {DEFAULT_SERVER}, env GAMUT_SERVER)",
    )


def run_login(args: argparse.Namespace) -> int:
    """Sign in (or up) and keep the session; returns the exit status."""
    try:
        name = sign_in(args.server, IdentityFile(), new=args.new, name=args.name)
    except SignInFailedError as error:
        print(f"gamut login: {error}", file=sys.stderr)
        return 1
    print(f"signed in as {name} on {args.server}: `gamut play` plays as {name} from now on")
    return 0


def run_logout(args: argparse.Namespace) -> int:
    """End the kept session; returns the exit status."""
    identities = IdentityFile()
    kept = identities.session(args.server)
    if kept is None:
        print(f"gamut logout: you are not signed in on {args.server}", file=sys.stderr)
        return 1
    name, secret = kept
    try:
        call(http_base(args.server), "POST", "/api/logout", {}, token=secret)
    except ApiError as error:
        print(f"gamut logout: {error} (the session is forgotten here anyway)", file=sys.stderr)
    identities.forget(args.server, name)
    print(f"signed out of {name} on {args.server}")
    return 0


def sign_in(
    server: str,
    identities: IdentityFile,
    *,
    new: bool = False,
    name: str | None = None,
    ask: Ask = input,
    ask_secret: Ask = getpass.getpass,
) -> str:
    """Ask for the name and password (twice for a new account), sign in or up, and keep
    the session for ``server``: the account's name as its owner spells it."""
    name = name or ask("Account name: ").strip()
    password = ask_secret("Password: ")
    if new and ask_secret("The same password again: ") != password:
        raise SignInFailedError("the two passwords differ: nothing was made")
    body = {"name": name, "password": password, "session": "token"}
    try:
        answer = call(http_base(server), "POST", "/api/signup" if new else "/api/login", body)
    except ApiError as error:
        raise SignInFailedError(str(error)) from None
    spelt: str = answer["name"]
    if not identities.remember(server, spelt, answer["token"]):
        raise SignInFailedError(
            f"signed in, but the session could not be kept in {identities.path}"
        )
    return spelt


def choose(server: str, identities: IdentityFile, ask: Ask = input) -> str | None:
    """Ask whether to sign in, make an account or play as a guest; the account's name, or
    ``None`` for a guest. A failed sign-in is said and asked again."""
    while True:
        answer = ask(
            "Sign in to your account (s), make an account (n), or play as a guest (g)? [g] "
        )
        choice = answer.strip().lower()[:1] or "g"
        if choice == "g":
            return None
        if choice not in ("s", "n"):
            continue
        try:
            return sign_in(server, identities, new=choice == "n", ask=ask)
        except SignInFailedError as error:
            print(f"{error}", file=sys.stderr)
