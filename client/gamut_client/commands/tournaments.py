"""``gamut tournaments``: a Gamut server's tournaments from the terminal.

``gamut tournaments`` lists the running, upcoming and finished ones; ``gamut tournaments
show ID`` prints one's standings and games; ``gamut tournaments join ID`` and ``leave
ID`` enter or withdraw the account signed in with ``gamut login`` (or a bot's, with
``--account NAME --token TOKEN``); ``gamut tournaments create GAME …`` creates one.
People's games are played with ``gamut play`` or the browser, bots' with ``gamut bot
--tournament ID``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from gamut_client.addresses import DEFAULT_SERVER
from gamut_client.http_api import ApiError, call, http_base


def register(subparsers: Any) -> None:
    """Add the ``tournaments`` subcommand."""
    parser = subparsers.add_parser(
        "tournaments",
        help="list, show, enter and create a server's tournaments",
        description=__doc__,
    )
    parser.add_argument(
        "--server",
        default=os.environ.get("GAMUT_SERVER", DEFAULT_SERVER),
        help=f"server URL, ws:// or http:// (default {DEFAULT_SERVER}, env GAMUT_SERVER)",
    )
    parser.add_argument("--account", help="a bot account's name (else the gamut login session)")
    parser.add_argument("--token", default=os.environ.get("GAMUT_TOKEN"), help="its token")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.add_parser("list", help="the tournaments (the default)")
    for action, text in (("show", "standings and games"), ("join", "enter"), ("leave", "withdraw")):
        actions.add_parser(action, help=text).add_argument("id")
    create = actions.add_parser("create", help="create a tournament")
    create.add_argument("game")
    create.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    create.add_argument("--name")
    create.add_argument("--kind", choices=("arena", "round_robin"), default="arena")
    create.add_argument("--minutes", type=int, help="an arena's length (default 30)")
    create.add_argument("--rounds", type=int, help="a round robin's cycles (default 1)")
    create.add_argument("--move-time", type=float, default=5.0, help="seconds a move (5)")
    create.add_argument("--starts-in", type=int, default=0, metavar="SECONDS")
    create.add_argument("--entry", choices=("people", "bots", "both"), default="both")
    create.add_argument("--rated", action="store_true")
    create.add_argument(
        "--openings",
        metavar="FILE",
        help="openings the games start from, one a line (docs/openings.md), such as "
        "bench/openings/connect5_15.txt",
    )
    parser.set_defaults(handler=run, action="list")


def run(args: argparse.Namespace) -> int:
    """Do the action; returns the exit status."""
    base = http_base(args.server)
    try:
        if args.action == "list":
            print("\n".join(listing(call(base, "GET", "/api/tournaments"))))
        elif args.action == "show":
            print("\n".join(details(call(base, "GET", f"/api/tournaments/{args.id}"))))
        elif args.action in ("join", "leave"):
            answer = call(base, "POST", f"/api/tournaments/{args.id}/{args.action}", *_signed(args))
            print(answer.get("message") or answer["status"])
        else:
            made = call(base, "POST", "/api/tournaments", *_signed(args, _settings(args)))
            print(f"created {made['name']} ({made['id']}), starting {made['starts_at']}")
    except (ApiError, ValueError, OSError) as error:
        print(f"gamut tournaments: {error}", file=sys.stderr)
        return 1
    return 0


def _signed(args: argparse.Namespace, body: dict[str, Any] | None = None) -> tuple[Any, str]:
    """The body and bearer of a signed request: a bot's token, or the kept session."""
    from gamut_client.identities import IdentityFile

    body = dict(body or {})
    if args.account:
        if not args.token:
            raise ValueError("give the account's token with --token or GAMUT_TOKEN")
        return {**body, "account": args.account}, args.token
    kept = IdentityFile().session(args.server)
    if kept is None:
        raise ValueError("sign in first with gamut login (or give --account and --token)")
    return body, kept[1]


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    options = {}
    for given in args.option:
        name, equals, value = given.partition("=")
        if not equals:
            raise ValueError(f"-o takes NAME=VALUE, not {given!r}")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    body: dict[str, Any] = {
        "game": args.game,
        "options": options,
        "kind": args.kind,
        "time_control": {"kind": "per_move", "move_ms": round(args.move_time * 1000)},
        "starts_in": args.starts_in,
        "entry": args.entry,
        "rated": args.rated,
    }
    for key in ("name", "minutes", "rounds"):
        if getattr(args, key) is not None:
            body[key] = getattr(args, key)
    if args.openings is not None:
        from pathlib import Path

        from gamut_engine.match import read_openings

        body["openings"] = [
            list(opening) for opening in read_openings(Path(args.openings).read_text())
        ]
    return body


def listing(found: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The tournaments, a section each for running, upcoming and finished."""
    lines = []
    for status in ("running", "upcoming", "finished"):
        lines.append(f"{status.capitalize()}:")
        for t in found[status]:
            kind = "arena" if t["kind"] == "arena" else "round robin"
            lines.append(
                f"  {t['id']}  {t['name']} ({kind}, {t['game']}), starts {t['starts_at']}, "
                f"{t['players']} players"
            )
        if not found[status]:
            lines.append("  none")
    return lines


def details(t: dict[str, Any]) -> list[str]:
    """One tournament: its standings, then its games."""
    lines = [f"{t['name']} ({t['id']}): {t['kind'].replace('_', ' ')}, {t['status']}", ""]
    lines.append(f"{'#':>3} {'player':<24} {'points':>6} {'games':>5} {'W-D-L':>8}")
    for line in t["standings"]:
        record = f"{line['wins']}-{line['draws']}-{line['losses']}"
        out = " (withdrew)" if line["withdrawn"] else ""
        lines.append(
            f"{line['rank']:>3} {line['name']:<24} {line['points']:>6g} {line['games']:>5} "
            f"{record:>8}{out}"
        )
    lines += ["", "Games:"]
    for game in t["games"]:
        result = {0: "1-0", 1: "0-1", None: "½-½"}[game["winner"]]
        if game["status"] in ("scheduled", "playing", "aborted"):
            result = game["status"]
        link = f"  /game/{game['game_id']}" if game["game_id"] else ""
        lines.append(f"  round {game['round']}: {game['first']} - {game['second']}  {result}{link}")
    return lines


if __name__ == "__main__":
    from gamut_client.commands.standalone import run_alone

    sys.exit(run_alone("tournaments", register))
