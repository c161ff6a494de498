"""``gamut ladder``: accounts and standings of a Gamut server's rated ladder.

``gamut ladder register NAME`` registers a bot's name and prints its token (shown once:
keep it); ``gamut ladder pools`` lists the pools; ``gamut ladder standings [POOL]``
prints the standings (all pools without POOL); ``gamut ladder crosstable POOL`` who
scored what against whom; ``gamut ladder reissue NAME`` and ``gamut ladder revoke
NAME`` replace or withdraw a token (give the current one with ``--token`` or
``GAMUT_TOKEN``). ``python -m gamut_client.commands.ladder`` runs the same command.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Final

from gamut_client.addresses import DEFAULT_SERVER
from gamut_client.http_api import ApiError, call, http_base

COLUMNS: Final = (
    "rank",
    "name",
    "ranked by",
    "rating",
    "games",
    "wins",
    "draws",
    "losses",
    "last seen",
)
"""The columns of the standings table."""

RANKING_NOTE: Final = (
    "  (ranked by rating − 3 × uncertainty: a figure the player is very likely above)"
)
"""What the standings rank by, under the table."""


_POOLS: Final = "/api/ladder/pools"


def register(subparsers: Any) -> None:
    """Add the ``ladder`` subcommand."""
    parser = subparsers.add_parser(
        "ladder", help="accounts and standings of the rated ladder", description=__doc__
    )
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options and actions of ``gamut ladder``."""
    parser.add_argument(
        "--server",
        default=os.environ.get("GAMUT_SERVER", DEFAULT_SERVER),
        help=f"server URL, ws:// or http:// (default {DEFAULT_SERVER}, env GAMUT_SERVER)",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    register = actions.add_parser("register", help="register a name; prints its token")
    register.add_argument("name")
    pools = actions.add_parser("pools", help="list the pools")
    standings = actions.add_parser("standings", help="print the standings")
    standings.add_argument("pool", nargs="?", help="one pool (default: every pool)")
    crosstable = actions.add_parser("crosstable", help="who scored what against whom")
    crosstable.add_argument("pool")
    subs = [register, pools, standings, crosstable]
    for action, text in (("reissue", "replace a token"), ("revoke", "withdraw a token")):
        sub = actions.add_parser(action, help=text)
        sub.add_argument("name")
        sub.add_argument("--token", default=os.environ.get("GAMUT_TOKEN"), help="current token")
        subs.append(sub)
    for sub in subs:  # --server may also follow the action, where people tend to put it
        sub.add_argument("--server", default=argparse.SUPPRESS, help="as above")


def run(args: argparse.Namespace) -> int:
    """Do the action; returns the exit status."""
    base = http_base(args.server)
    try:
        print(ACTIONS[args.action](base, args))
    except ApiError as error:
        print(f"gamut ladder: {error}", file=sys.stderr)
        return 1
    return 0


def _register(base: str, args: argparse.Namespace) -> str:
    answer = call(base, "POST", "/api/accounts", {"name": args.name})
    return (
        f"registered {answer['name']}; its token (shown this once, keep it secret):\n\n"
        f"  {answer['token']}\n\n"
        f"run a bot on the ladder with:\n"
        f"  gamut bot SPEC --name {answer['name']} --token TOKEN --ladder POOL"
    )


def _tokens(base: str, args: argparse.Namespace) -> str:
    if not args.token:
        raise ApiError("give the current token with --token or GAMUT_TOKEN")
    path = f"/api/accounts/{args.name}/token"
    if args.action == "revoke":
        call(base, "DELETE", path, token=args.token)
        return f"the token of {args.name} is revoked"
    answer = call(base, "POST", path, token=args.token)
    return f"new token of {args.name} (the old one no longer works):\n\n  {answer['token']}"


def _pools(base: str, args: argparse.Namespace) -> str:
    lines = []
    for pool in call(base, "GET", _POOLS):
        anchors = ", ".join(pool["anchors"]) or "none"
        lines.append(
            f"{pool['pool']:<16} {pool['title']}: {pool['members']} members, "
            f"{pool['waiting']} waiting, {pool['playing']} playing; anchors {anchors}"
        )
    return "\n".join(lines) or "no pools"


def _standings(base: str, args: argparse.Namespace) -> str:
    pools = (
        [args.pool] if args.pool else [p["pool"] for p in call(base, "GET", "/api/ladder/pools")]
    )
    tables = []
    for pool in pools:
        rows = call(base, "GET", f"/api/ladder/{pool}/standings")["standings"]
        tables.append(f"{pool}\n{format_standings(rows)}")
    return "\n\n".join(tables)


def format_standings(rows: Sequence[dict[str, Any]], now: datetime | None = None) -> str:
    """The standings as a text table: rank, name, the conservative rating they are ranked
    by, rating ± uncertainty, record, last seen; and a line saying what the ranking uses."""
    now = now or datetime.now(UTC)
    cells = [
        (
            str(row["rank"]),
            row["name"] + (" (AI)" if row["kind"] == "ai" else ""),
            str(row.get("ordinal", row["rating"] - 3 * row["uncertainty"])),
            f"{row['rating']} ± {row['uncertainty']}",
            str(row["games"]),
            str(row["wins"]),
            str(row["draws"]),
            str(row["losses"]),
            _ago(row["last_seen"], now),
        )
        for row in rows
    ]
    if not cells:
        return "  (nobody yet)"
    widths = [max(len(text) for text in column) for column in zip(COLUMNS, *cells, strict=False)]
    lines = [_line(COLUMNS, widths)] + [_line(row, widths) for row in cells]
    return "\n".join([*lines, RANKING_NOTE])


def _line(texts: Sequence[str], widths: Sequence[int]) -> str:
    """One table line: numbers right-aligned, names left-aligned."""
    parts = [
        text.ljust(width) if index in (1, 8) else text.rjust(width)
        for index, (text, width) in enumerate(zip(texts, widths, strict=True))
    ]
    return "  " + "  ".join(parts).rstrip()


def _ago(moment: str | None, now: datetime) -> str:
    """How long ago an ISO timestamp was, roughly."""
    if moment is None:
        return "never"
    seconds = max(0, int((now - datetime.fromisoformat(moment)).total_seconds()))
    for unit, size in (("d", 86_400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds // size} {unit} ago"
    return f"{seconds} s ago"


def _crosstable(base: str, args: argparse.Namespace) -> str:
    table = call(base, "GET", f"/api/ladder/{args.pool}/crosstable")
    names = table["names"]
    if not names:
        return f"{args.pool}: no rated game yet"
    width = max(len(name) for name in names)
    head = " " * (width + 2) + "  ".join(f"{i + 1:>7}" for i in range(len(names)))
    lines = [head]
    for number, row in enumerate(table["rows"], start=1):
        cells = [
            "      -" if cell is None else f"{cell['wins']:>2}-{cell['draws']}-{cell['losses']:<2}"
            for cell in row["results"]
        ]
        line = f"{number}. {row['name']:<{width}}" + "  ".join(f"{c:>7}" for c in cells)
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n(wins-draws-losses of the row against the column)"


ACTIONS: Final = {
    "register": _register,
    "pools": _pools,
    "standings": _standings,
    "crosstable": _crosstable,
    "reissue": _tokens,
    "revoke": _tokens,
}
"""What each action does: the server's base URL and the arguments in, text out."""


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gamut_client.commands.ladder``: the ``ladder`` command on its own."""
    parser = argparse.ArgumentParser(prog="gamut ladder", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
