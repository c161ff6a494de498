"""``gamut schema``: print the JSON Schema of the wire protocol, or write it to files.

``gamut schema`` prints both directions as one JSON object (``{"client": …,
"server": …}``) on standard output; ``gamut schema client`` (or ``server``) prints
that direction's schema alone, a JSON Schema document in itself; ``--out DIR``
writes ``client.json`` and ``server.json`` into ``DIR`` instead and prints their paths.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

DIRECTIONS: Final = {"client": "client.json", "server": "server.json"}
"""Each direction and its schema's file name (the protocol's models, which the schemas are
built from, are loaded only when the command runs)."""

Schemas = Mapping[str, Callable[[], dict[str, Any]]]
"""Each schema's file name and the function that builds it."""


def register(subparsers: Any) -> None:
    """Add the ``schema`` subcommand."""
    parser = subparsers.add_parser(
        "schema",
        help="print the JSON Schema of the wire protocol (or write it with --out)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "direction",
        nargs="?",
        choices=sorted(DIRECTIONS),
        help="only the messages clients send (client) or servers send (server)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="write client.json and server.json into DIR (created if missing) instead",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the schema asked for, or write the files into ``--out``."""
    from gamut_protocol.schema import SCHEMAS

    if args.out is not None:
        for path in write_schemas(args.out, SCHEMAS):
            print(path)
        return 0
    if args.direction is not None:
        print(dumps(SCHEMAS[DIRECTIONS[args.direction]]()))
    else:
        print(dumps({direction: SCHEMAS[name]() for direction, name in DIRECTIONS.items()}))
    return 0


def dumps(document: Any) -> str:
    """``document`` as indented JSON."""
    return json.dumps(document, indent=2, ensure_ascii=False)


def write_schemas(folder: Path, schemas: Schemas) -> list[Path]:
    """Write every schema into ``folder`` (created if needed); returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, build in schemas.items():
        path = folder / name
        path.write_text(dumps(build()) + "\n", encoding="utf-8")
        written.append(path)
    return written
