"""The options of the commands that keep a guest's token between runs (``play``, ``bot``)."""

from __future__ import annotations

import argparse

from gamut_client.identities import IdentityFile, config_folder


def add_identity_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--no-save`` and ``--forget``."""
    where = config_folder() / "identities.json"
    parser.add_argument(
        "--no-save",
        action="store_true",
        help=f"neither use nor save the token that keeps your name between runs (in {where})",
    )
    parser.add_argument(
        "--forget",
        action="store_true",
        help="drop the token saved for this name on this server first, and start afresh",
    )


def identity_file(args: argparse.Namespace, server: str, name: str) -> IdentityFile | None:
    """The saved tokens to use, after ``--forget`` dropped this name's; ``None`` with
    ``--no-save``. Raises ``ValueError`` for a bad server URL."""
    identities = IdentityFile()
    if args.forget:
        identities.forget(server, name)
    return None if args.no_save else identities
