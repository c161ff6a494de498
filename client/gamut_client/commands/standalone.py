"""Run one subcommand without the ``gamut`` entry-point lookup (``python -m …``).

``gamut`` finds its subcommands through installed entry points; a command module that
ends with ``sys.exit(run_alone("name", register))`` also runs as ``python -m`` with the
same arguments and the same code, before or without that registration.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any


def run_alone(name: str, register: Callable[[Any], None], argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: the process arguments) as ``gamut NAME …`` and run it."""
    parser = argparse.ArgumentParser(prog="gamut")
    subparsers = parser.add_subparsers(dest="command", required=True)
    register(subparsers)
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args([name, *arguments])
    try:
        status: int = args.handler(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return status
