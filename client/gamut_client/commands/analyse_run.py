"""What ``gamut analyse`` does once it runs: ask, wait with progress, print (the command's
module registers it without loading any of this)."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO
from urllib.parse import quote

from gamut_client.analysis import wait_for_analysis
from gamut_client.analysis_text import format_analysis
from gamut_client.http_api import ApiError, call, http_base
from gamut_engine import load_game
from gamut_protocol.analysis import AnalysisProgress, GameAnalysis


def analyse_game(args: argparse.Namespace) -> int:
    """Wait for the analysis and print it; returns the exit status."""
    if args.account is not None and not args.token:
        print(
            "gamut analyse: give the account's token with --token or GAMUT_TOKEN", file=sys.stderr
        )
        return 2
    progress = ProgressLine(sys.stderr)
    try:
        report = wait_for_analysis(
            args.server,
            args.game_id,
            account=args.account,
            token=args.token if args.account else None,
            on_progress=progress.show,
        )
        heading, sides = describe_game(args.server, report)
    except ApiError as error:
        progress.end()
        print(f"gamut analyse: {error}", file=sys.stderr)
        return 1
    progress.end()
    print(format_analysis(report, sides, heading))
    return 0


def describe_game(server: str, report: GameAnalysis) -> tuple[str, tuple[str, str]]:
    """The heading line of the game analysed and its sides' names (``X (ada)``)."""
    game = load_game(report.game, **report.options)
    record = call(http_base(server), "GET", f"/api/games/{quote(report.game_id, safe='')}")
    players = [player["name"] if player else "nobody" for player in record["players"]]
    result = record.get("result") or {}
    outcome = "unfinished"
    if record["status"] == "finished":
        winner = result.get("winner")
        outcome = "a draw" if winner is None else f"{game.sides[winner]} won"
        outcome += f" ({result.get('reason')})"
    names = (f"{game.sides[0]} ({players[0]})", f"{game.sides[1]} ({players[1]})")
    heading = f"Game {report.game_id}, {game.title}: {names[0]} against {names[1]}, {outcome}"
    return heading, (game.sides[0], game.sides[1])


class ProgressLine:
    """How far the analysis has got, on one line of a terminal (a line a change elsewhere)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = ""

    def show(self, progress: AnalysisProgress) -> None:
        """Show ``progress`` if it says something new."""
        if progress.status == "queued":
            text = f"analysis of game {progress.game_id} waiting for a worker"
        else:
            text = (
                f"analysing game {progress.game_id}: {progress.done} of {progress.total} positions"
            )
        if text == self.shown:
            return
        self.shown = text
        if self.stream.isatty():
            self.stream.write("\r\033[K" + text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def end(self) -> None:
        """Finish the progress line."""
        if self.shown and self.stream.isatty():
            self.stream.write("\n")
            self.stream.flush()
