"""``gamut match``: play a series of local games between two players and score them.

Player A and player B are specs (``random``, ``ai:5``, ``ai:depth=3``, ``ai:time=2``,
``module:Class``) or anything ``gamut bot`` runs: a bot class (``file.py:Class``) or a
program behind a bridge (``gomocup:COMMAND``, ``line:COMMAND``, ``seed5:COMMAND``),
shown the game as a server would, untimed or with ``--move-time`` seconds a move (which
also holds the AI, unless its spec sets its own search); colours alternate from game
to game. Progress goes to standard error
(a bar on a terminal, one line a game otherwise); the summary goes to standard output:
A's wins, draws and losses, its score with a 95% Wilson interval, how the games ended,
and each player's mean time and search depth a move.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

from gamut_client.commands.common import add_game_arguments, game_from_args, game_options
from gamut_client.commands.standalone import run_alone
from gamut_client.match_jobs import iter_match_in_processes
from gamut_engine import AnyGame, Outcome
from gamut_engine.match import (
    PLAYER_NAMES,
    GameRecord,
    MatchResult,
    MatchSpec,
    read_openings,
    written_opening,
)
from gamut_engine.match_tally import Tally

PLAYER_HELP = (
    "random, ai:LEVEL, ai:depth=D, ai:time=S, ai:nodes=N, module:Class, file.py:Class, "
    "gomocup:COMMAND, line:COMMAND or seed5:COMMAND"
)


def register(subparsers: Any) -> None:
    """Add the ``match`` subcommand."""
    parser = subparsers.add_parser(
        "match", help="play games between two players and score them with a confidence interval"
    )
    add_game_arguments(parser)
    parser.add_argument("a", metavar="A", help=f"player A: {PLAYER_HELP}")
    parser.add_argument("b", metavar="B", help=f"player B: {PLAYER_HELP}")
    parser.add_argument("-n", "--games", type=int, default=10, help="games to play (default 10)")
    parser.add_argument(
        "-j", "--jobs", type=int, default=1, help="games played at once in worker processes"
    )
    parser.add_argument("--seed", type=int, help="seed of every random choice (default: random)")
    parser.add_argument(
        "--opening",
        type=int,
        default=0,
        metavar="PLIES",
        help="random plies opening each pair of games (default 0)",
    )
    parser.add_argument(
        "--openings",
        metavar="FILE",
        help="openings to start each pair of games from, one a line: moves in the game's "
        "notation separated by spaces ('#' starts a comment); pair i plays opening i, "
        "cycling through the file",
    )
    parser.add_argument(
        "--move-time",
        type=float,
        metavar="SECONDS",
        help="seconds a move for every player: programs and bots are told so, and the AI is "
        "held to it unless its spec sets its own search (ai:8,budget=5, ai:time=2, "
        "ai:depth=3…); default: untimed, the AI at its level's standard time",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print the summary only")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play the match and print its summary; 2 for bad arguments."""
    from gamut_client.bots.offline import match_player  # the bot machinery, when it runs

    game = game_from_args(args)
    maker = partial(match_player, move_seconds=args.move_time)
    try:
        for spec in (args.a, args.b):
            maker(spec, 0)
        openings = openings_from_file(game, args.openings)
        match = MatchSpec(
            game=args.game,
            players=(args.a, args.b),
            games=args.games,
            options=game_options(args),
            seed=random.randrange(2**31) if args.seed is None else args.seed,
            opening_plies=args.opening,
            openings=openings,
            player_maker=maker,
        )
    except (ValueError, OSError) as error:
        print(f"gamut match: {error}", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("gamut match: --jobs must be at least 1", file=sys.stderr)
        return 2
    print(heading(game, match), flush=True)
    started = time.perf_counter()
    records = sorted(_with_progress(game, match, args.jobs, args.quiet), key=lambda r: r.index)
    result = MatchResult(match, tuple(records), time.perf_counter() - started)
    print("\n".join(summary(result)))
    workers = "1 process" if args.jobs == 1 else f"{args.jobs} worker processes"
    print(f"{result.elapsed:.1f} s with {workers}")
    return 0


def openings_from_file(game: AnyGame, path: str | None) -> tuple[tuple[str, ...], ...]:
    """The openings of the file at ``path`` (none without one), each checked on ``game``."""
    if path is None:
        return ()
    openings = read_openings(Path(path).read_text())
    if not openings:
        raise ValueError(f"{path} holds no opening")
    for number, opening in enumerate(openings, 1):
        try:
            written_opening(game, opening)
        except ValueError as error:
            raise ValueError(f"{path}, opening {number}: {error}") from error
    return openings


def _with_progress(game: AnyGame, match: MatchSpec, jobs: int, quiet: bool) -> Iterator[GameRecord]:
    """The match's records, showing progress on standard error unless ``quiet``."""
    records = iter_match_in_processes(match, jobs)
    if quiet:
        yield from records
    elif sys.stderr.isatty():
        yield from _progress_bar(records, match.games)
    else:
        for done, record in enumerate(records, 1):
            print(f"game {done}/{match.games}: {game_line(game, record)}", file=sys.stderr)
            yield record


def _progress_bar(records: Iterator[GameRecord], total: int) -> Iterator[GameRecord]:
    """Pass the records through, drawing a bar with the running score."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    columns = ("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    points = 0.0
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("A 0 - 0 B", total=total)
        for done, record in enumerate(records, 1):
            points += record.a_points
            score = f"A {points:g} - {done - points:g} B"
            progress.update(task, advance=1, description=score)
            yield record


def heading(game: AnyGame, match: MatchSpec) -> str:
    """The first line: what is played."""
    a, b = match.players
    opening = f", {match.opening_plies} random opening plies" if match.opening_plies else ""
    if match.openings:
        opening = f", {len(match.openings)} written openings"
    return (
        f"{game.title}: A = {a}, B = {b}; {match.games} games, colours alternating"
        f"{opening}; seed {match.seed}"
    )


def game_line(game: AnyGame, record: GameRecord) -> str:
    """One game's result for the progress lines, in the game's own sentence for how it
    ended: ``A (Red) wins: Red joins their two sides, in 5 plies``."""
    if record.winner is None:
        ending = game.ending(Outcome(None, record.reason))
        return f"draw: {ending}, after {record.plies} plies"
    side = record.a_side if record.winner == 0 else 1 - record.a_side
    name = PLAYER_NAMES[record.winner]
    ending = game.ending(Outcome(side, record.reason))
    return f"{name} ({game.sides[side]}) wins: {ending}, in {record.plies} plies"


def summary(result: MatchResult) -> list[str]:
    """The closing lines: A's results and score, the endings, then each player's figures."""
    low, high = result.interval.low, result.interval.high
    endings = ", ".join(f"{reason} {count}" for reason, count in result.reasons.most_common())
    lines = [
        f"A: {_count(result.wins, 'win')}, {_count(result.draws, 'draw')}, "
        f"{_count(result.losses, 'loss')}",
        f"A's score {result.score:.1%} (95% CI {low:.1%} to {high:.1%}, Wilson), "
        f"Elo difference {result.elo:+.0f}",
        f"Endings: {endings}",
        f"{'player':<8} {'spec':<20} {'moves':>6} {'mean time':>10} {'mean depth':>10} "
        f"{'nodes/s':>10}",
    ]
    for index, name in enumerate(PLAYER_NAMES):
        lines.append(tally_row(name, result.spec.players[index], result.tally(index)))
    return lines


def tally_row(name: str, spec: str, tally: Tally) -> str:
    """One player's row of the figures table; ``-`` where it did not search."""
    mean_time = "-" if tally.mean_time is None else f"{tally.mean_time:.3f} s"
    depth = "-" if tally.mean_depth is None else f"{tally.mean_depth:.2f}"
    speed = "-" if tally.nodes_per_second is None else f"{tally.nodes_per_second:,.0f}"
    return f"{name:<8} {spec:<20} {tally.moves:>6} {mean_time:>10} {depth:>10} {speed:>10}"


def _count(number: int, noun: str) -> str:
    plural = "losses" if noun == "loss" else f"{noun}s"
    return f"{number} {noun if number == 1 else plural}"


if __name__ == "__main__":
    sys.exit(run_alone("match", register))
