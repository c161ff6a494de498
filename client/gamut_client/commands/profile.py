"""``gamut profile NAME``: a player's page in the terminal.

It prints what the page at ``/@/NAME`` shows: whether the player is online or playing
(with the link to watch), their wins, draws and losses, each rating with its record and
a graph of its history, and their latest games with links to replay them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, Final

from gamut_client.commands.account import add_server_argument
from gamut_client.http_api import ApiError, call, http_base

BARS: Final = "▁▂▃▄▅▆▇█"
"""The heights a rating graph is drawn with."""

GRAPH_WIDTH: Final = 40
"""The most points a graph shows (the latest)."""


def register(subparsers: Any) -> None:
    """Add the ``profile`` subcommand."""
    parser = subparsers.add_parser("profile", help="a player's ratings and games")
    add_server_argument(parser)
    parser.add_argument("name", help="the player's account name (any case)")
    parser.add_argument(
        "--games", type=int, default=10, help="how many of the latest games to list (default 10)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the profile; returns the exit status."""
    base = http_base(args.server)
    try:
        profile = call(base, "GET", f"/api/players/{args.name}")
        games = call(base, "GET", f"/api/players/{args.name}/games?limit={max(1, args.games)}")
    except ApiError as error:
        print(f"gamut profile: {error}", file=sys.stderr)
        return 1
    print(format_profile(profile, games["games"], base))
    return 0


def format_profile(profile: dict[str, Any], games: Sequence[dict[str, Any]], base: str) -> str:
    """The profile as text."""
    name = profile["name"]
    lines = [f"{name} · {_presence(profile)} · member since {profile['created_at'][:10]}"]
    lines += [f"  watch: {base}/game/{room}" for room in profile["playing"]]
    record = profile["record"]
    lines.append(f"{record['wins']} won, {record['draws']} drawn, {record['losses']} lost")
    lines += ["", "Ratings"]
    lines += [line for rating in profile["ratings"] for line in _rating_lines(rating)]
    if not profile["ratings"]:
        lines.append("  no rated game yet")
    lines += ["", "Games"]
    lines += [_game_line(game, name, base) for game in games] or ["  no game over yet"]
    return "\n".join(lines)


def _presence(profile: dict[str, Any]) -> str:
    """Playing, online or offline."""
    if profile["playing"]:
        return "playing now"
    return "online" if profile["online"] else "offline"


def _rating_lines(rating: dict[str, Any]) -> list[str]:
    """One rating: its figure, record and graph."""
    mark = "?" if rating["provisional"] else ""
    games = f"{rating['games']} game{'s' if rating['games'] != 1 else ''}"
    head = (
        f"  {rating['title']}: {rating['rating']}{mark} ± {rating['uncertainty']}, {games} "
        f"({rating['wins']} won, {rating['draws']} drawn, {rating['losses']} lost)"
    )
    values = [point["rating"] for point in rating["history"]]
    lines = [head]
    if len(values) > 1:
        lines.append(f"    {graph(values)}  {values[0]} → {values[-1]}")
    if rating["provisional"]:
        lines.append("    (provisional: ? until about twelve games)")
    return lines


def graph(values: Sequence[int]) -> str:
    """A rating history as a line of bars, lowest to highest, the latest at the right."""
    shown = list(values)[-GRAPH_WIDTH:]
    low, high = min(shown), max(shown)
    span = max(1, high - low)
    return "".join(BARS[(value - low) * (len(BARS) - 1) // span] for value in shown)


def _game_line(game: dict[str, Any], name: str, base: str) -> str:
    """One game: when, what, against whom, how it went, the rating change, the replay."""
    players = [player["name"] if player else "?" for player in game["players"]]
    side = players.index(name) if name in players else 0
    change = game.get("rating_change")
    rated = ""
    if change is not None:
        sign = "+" if change["change"] > 0 else "−" if change["change"] < 0 else "±"
        rated = f"  rated {change['after']} ({sign}{abs(change['change'])})"
    when = (game["finished_at"] or game["created_at"] or "")[:10]
    return (
        f"  {when}  {game['game']} against {players[1 - side]}: {_outcome(game, side)}{rated}"
        f"  {base}/game/{game['id']}?replay"
    )


def _outcome(game: dict[str, Any], side: int) -> str:
    """Won, lost, drawn or aborted, for the player at ``side``."""
    if game["status"] == "aborted":
        return "aborted"
    winner = (game["result"] or {}).get("winner")
    if winner is None:
        return "drawn"
    return "won" if winner == side else "lost"
