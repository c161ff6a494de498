"""The ``gamut`` command.

Subcommands are found through the ``gamut.commands`` entry-point group: each entry
names a ``register(subparsers)`` function that adds its parser and sets ``handler``.
So every package contributes its own commands and none imports another to do so.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points

Handler = Callable[[argparse.Namespace], int]
"""What a subcommand runs: the parsed arguments in, the exit status out."""


def build_parser() -> argparse.ArgumentParser:
    """The parser with every installed subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="gamut", description="Gamut: a server and clients for small abstract games."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for entry in sorted(entry_points(group="gamut.commands"), key=lambda e: e.name):
        entry.load()(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``gamut`` command line; returns the exit status."""
    # ``module:Class`` players are usually files in the current directory, which a console
    # script, unlike ``python -m``, does not put on the import path.
    from gamut_engine.registry import RegistryError

    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        parser = build_parser()
    except RegistryError as error:  # an installed game package that cannot be used
        print(f"gamut: {error}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
