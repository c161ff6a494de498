"""``gamut schema``: write the JSON Schema of every message, one file per direction."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from gamut_protocol.schema import SCHEMAS


def register(subparsers: Any) -> None:
    """Add the ``schema`` subcommand."""
    parser = subparsers.add_parser(
        "schema",
        help="write the JSON Schema of the wire protocol (client.json, server.json)",
        description="Write the JSON Schemas of the messages clients send (client.json) "
        "and of those servers send (server.json).",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(),
        metavar="DIR",
        help="folder to write into, created if missing (default: the current folder)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write both schemas into ``--out`` and print where they went."""
    for path in write_schemas(args.out):
        print(path)
    return 0


def write_schemas(folder: Path) -> list[Path]:
    """Write every schema into ``folder`` (created if needed); returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, build in SCHEMAS.items():
        path = folder / name
        path.write_text(json.dumps(build(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written
