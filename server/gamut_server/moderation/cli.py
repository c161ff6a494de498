"""``gamut mod``: moderation from the server's machine, on the database itself.

Registered as a ``gamut.commands`` entry point (``mod = "gamut_server.moderation.cli:register"``).
It works whether a server runs or not: a running server (every node of a cluster)
applies what it changes within a second. Its actions are logged as the ``operator``'s.
Registering it imports nothing of the database: :func:`run` does, when it runs.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gamut_server.moderation.actions import Moderation

_DB_HELP = "a SQLite file or a postgresql:// URL (default env GAMUT_DB, else gamut.sqlite3)"

_SANCTIONS = {
    "ban": ("NAME", "ban a player (an account or a guest's name): their sessions end at once"),
    "mute": ("NAME", "mute a player: their chat lines are refused"),
    "ban-address": ("NETWORK", "ban an address or a range (203.0.113.0/24) before it connects"),
    "take-name": ("NAME", "take a guest off a name: their sessions end, guests may not use it"),
}
_LIFTS = {
    "unban": ("NAME", "ban", "lift a player's ban"),
    "unmute": ("NAME", "mute", "lift a player's mute"),
    "unban-address": ("NETWORK", "address", "lift the ban of an address or a range"),
    "release-name": ("NAME", "name", "let guests use a name taken from them again"),
}


def register(subparsers: Any) -> None:
    """Add the ``mod`` subcommand and its actions."""
    parser = subparsers.add_parser(
        "mod", help="moderate: ban, mute, take names, moderators, reports, log"
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, summary in (
        ("grant", "make an account a moderator"),
        ("revoke", "take the moderator's role from an account"),
    ):
        action = _action(actions, name, summary)
        action.add_argument("name", metavar="NAME")
    for name, (subject, summary) in _SANCTIONS.items():
        action = _action(actions, name, summary)
        action.add_argument("subject", metavar=subject)
        action.add_argument("--reason", required=True, help="why (kept in the audit log)")
        until = "a day" if name == "take-name" else "until lifted"
        action.add_argument(
            "--for", dest="length", help=f"how long: 30m, 12h, 7d, 2w (default: {until})"
        )
    for name, (subject, _, summary) in _LIFTS.items():
        action = _action(actions, name, summary)
        action.add_argument("subject", metavar=subject)
        action.add_argument("--reason", default="lifted", help="why (kept in the audit log)")
    reports = _action(actions, "reports", "list the open reports (--all: closed ones too)")
    reports.add_argument("--all", action="store_true", help="closed reports too, newest first")
    close = _action(actions, "close", "close a report, saying what was done")
    close.add_argument("report", type=int, metavar="REPORT")
    close.add_argument("--reason", required=True, help="what was done about it")
    log = _action(actions, "log", "the audit log, newest first")
    log.add_argument("--limit", type=int, default=50, help="how many entries (default 50)")
    parser.set_defaults(handler=run)


def _action(actions: Any, name: str, summary: str) -> argparse.ArgumentParser:
    """One action's parser, with ``--db``."""
    action: argparse.ArgumentParser = actions.add_parser(name, help=summary, description=summary)
    action.add_argument("--db", help=_DB_HELP)
    return action


def run(args: argparse.Namespace) -> int:
    """Run ``gamut mod ACTION``; returns the exit status."""
    from gamut_server.config import ServerConfig
    from gamut_server.storage import SchemaError

    try:
        db = ServerConfig.from_env().with_overrides(db=args.db).db
        return asyncio.run(_run(db, args))
    except (ValueError, SchemaError) as error:
        raise SystemExit(f"gamut mod: {error}") from None


async def _run(db: str | None, args: argparse.Namespace) -> int:
    """Open the store (upgrading its tables), act, print what was done."""
    from gamut_server.moderation.actions import Moderation
    from gamut_server.storage import Store

    async with await Store.open(db) as store:
        for line in await _act(Moderation(store), args):
            print(line)
    return 0


async def _act(moderation: Moderation, args: argparse.Namespace) -> list[str]:
    """The action's lines of output."""
    from gamut_server.moderation.actions import OPERATOR, TAKE_NAME_FOR
    from gamut_server.moderation.rules import parse_duration
    from gamut_server.moderation.views import audit_line, report_lines

    action = args.action
    if action == "grant":
        return [await moderation.grant(OPERATOR, args.name)]
    if action == "revoke":
        return [await moderation.revoke(OPERATOR, args.name)]
    if action in _SANCTIONS:
        length = None if args.length is None else parse_duration(args.length)
        if action == "take-name" and length is None:
            length = TAKE_NAME_FOR
        take = {
            "ban": moderation.ban,
            "mute": moderation.mute,
            "ban-address": moderation.ban_address,
            "take-name": moderation.take_name,
        }[action]
        return [await take(OPERATOR, args.subject, args.reason, length)]
    if action in _LIFTS:
        kind = _LIFTS[action][1]
        return [await moderation.lift(OPERATOR, kind, args.subject, args.reason)]  # type: ignore[arg-type]
    if action == "close":
        return [await moderation.close_report(OPERATOR, args.report, args.reason)]
    if action == "reports":
        found = await moderation.store.reports(open_only=not args.all)
        if not found:
            return ["No open reports." if not args.all else "No reports."]
        return [line for report in found for line in report_lines(report)]
    entries = await moderation.store.audit_entries(args.limit)
    return [audit_line(entry) for entry in entries] or ["The audit log is empty."]
