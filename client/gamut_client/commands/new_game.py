"""``gamut new-game``: start a game package from the template.

It writes a complete, playable gravity game (``pyproject.toml`` with its ``gamut.games``
entry point, the rules in one module, tests running the conformance kit) into a new
folder, for the author to install and change into their own game.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gamut_engine.template import write_package


def register(subparsers: Any) -> None:
    """Add the ``new-game`` subcommand."""
    parser = subparsers.add_parser("new-game", help="start a game package from the template")
    parser.add_argument("name", help="the game's registry name: lower-case letters, digits, _")
    parser.add_argument("--title", help="the game's name for people (default: from NAME)")
    parser.add_argument(
        "--folder", type=Path, help="where to write the package (default: gamut-NAME)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write the package and say what to do next."""
    folder: Path = args.folder or Path(f"gamut-{args.name}")
    try:
        written = write_package(folder, args.name, args.title)
    except ValueError as error:
        raise SystemExit(f"gamut: {error}") from None
    for path in written:
        print(f"wrote {path}")
    print(f"next: cd {folder} && pip install -e . && gamut check-game {args.name}")
    return 0
