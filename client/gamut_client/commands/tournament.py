"""``gamut tournament``: a round robin (or gauntlet) between local players, with a crosstable.

Players are any specs ``gamut match`` takes. In every round each pair of players meets
twice from the round's opening, once with each colour; ``--concurrency`` games are
played at once in worker processes. Every finished game is written at once to the
results file (``--results``, one JSON line a game), so a tournament stopped at any
moment resumes where it stopped when the same command is run again. Progress goes to
standard error; the crosstable, each player's Elo difference against the field with
its 95% interval, each meeting's Elo difference and the endings go to standard output.
"""

from __future__ import annotations

import argparse
import random
import sys
from functools import partial
from pathlib import Path
from typing import Any

from gamut_client.commands.common import add_game_arguments, game_from_args, game_options
from gamut_client.commands.match import PLAYER_HELP, openings_from_file
from gamut_client.commands.standalone import run_alone
from gamut_engine import AnyGame
from gamut_engine.tournament import Outcome, TournamentSpec, schedule
from gamut_engine.tournament_table import Table, build_table, crosstable_rows

DEFAULT_RESULTS = "tournament.jsonl"
"""Where the results go unless ``--results`` says otherwise."""


def register(subparsers: Any) -> None:
    """Add the ``tournament`` subcommand."""
    parser = subparsers.add_parser(
        "tournament",
        help="play a round robin between local players and print a crosstable with Elo",
    )
    add_game_arguments(parser)
    parser.add_argument("players", metavar="PLAYER", nargs="+", help=f"two or more: {PLAYER_HELP}")
    parser.add_argument(
        "--rounds", type=int, default=1, help="rounds; each pair meets twice a round (default 1)"
    )
    parser.add_argument(
        "--gauntlet", action="store_true", help="the first player meets each other; no other pair"
    )
    parser.add_argument(
        "-j", "--concurrency", type=int, default=1, help="games played at once (default 1)"
    )
    parser.add_argument("--seed", type=int, help="seed of every random choice (default: random)")
    parser.add_argument(
        "--opening", type=int, default=0, metavar="PLIES", help="random plies opening each round"
    )
    parser.add_argument(
        "--openings",
        metavar="FILE",
        help="openings, one a line in the game's notation ('#' starts a comment); round r "
        "starts from opening r, cycling",
    )
    parser.add_argument(
        "--move-time", type=float, metavar="SECONDS", help="seconds a move for every player"
    )
    parser.add_argument(
        "--results",
        metavar="FILE",
        default=DEFAULT_RESULTS,
        help=f"results file, one JSON line a game, resumed if present (default {DEFAULT_RESULTS})",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print the crosstable only")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play (or resume) the tournament and print its crosstable; 2 for bad arguments."""
    from gamut_client.bots.offline import match_player  # the bot machinery, when it runs
    from gamut_client.match_jobs import iter_pairings_in_processes
    from gamut_client.tournament_log import ResultsFile, read_header

    game = game_from_args(args)
    path = Path(args.results)
    maker = partial(match_player, move_seconds=args.move_time)
    try:
        if args.concurrency < 1:
            raise ValueError("--concurrency must be at least 1")
        for player in args.players:
            maker(player, 0)
        spec = TournamentSpec(
            game=args.game,
            players=tuple(args.players),
            rounds=args.rounds,
            options=game_options(args),
            seed=_seed(args.seed, read_header(path)),
            gauntlet=args.gauntlet,
            opening_plies=args.opening,
            openings=openings_from_file(game, args.openings),
            player_maker=maker,
        )
        results = ResultsFile(path, spec, {"move_time": args.move_time})
    except (ValueError, OSError) as error:
        print(f"gamut tournament: {error}", file=sys.stderr)
        return 2
    games = schedule(spec)
    pending = [pairing for pairing in games if pairing.key not in results.outcomes]
    print(heading(game, spec, len(games), len(games) - len(pending), path), flush=True)
    for outcome in iter_pairings_in_processes(spec, pending, args.concurrency):
        results.add(outcome)
        if not args.quiet:
            done = len(results.outcomes)
            print(f"game {done}/{len(games)}: {game_line(game, spec, outcome)}", file=sys.stderr)
    table = build_table(len(spec.players), results.outcomes.values())
    print("\n".join(report(spec, table)))
    return 0


def _seed(given: int | None, header: dict[str, Any] | None) -> int:
    """The seed given, else the one of the results being resumed, else a random one."""
    if given is not None:
        return given
    if header is not None and isinstance(header.get("seed"), int):
        return int(header["seed"])
    return random.randrange(2**31)


def heading(game: AnyGame, spec: TournamentSpec, games: int, done: int, path: Path) -> str:
    """The first line: what is played, and how much of it already was."""
    kind = "gauntlet" if spec.gauntlet else "round robin"
    resumed = f"; {done} already played, resumed from {path}" if done else f"; results in {path}"
    return (
        f"{game.title}: {kind} of {len(spec.players)} players, {spec.rounds} rounds, "
        f"{games} games; seed {spec.seed}{resumed}"
    )


def game_line(game: AnyGame, spec: TournamentSpec, outcome: Outcome) -> str:
    """One game's result for the progress lines."""
    pairing = outcome.pairing
    first, second = spec.players[pairing.first], spec.players[pairing.second]
    reason = outcome.reason.replace("_", " ")
    plies = len(outcome.moves)
    if outcome.winner is None:
        return f"{first} - {second}: draw ({reason}) after {plies} plies"
    side = 0 if outcome.winner == pairing.first else 1
    winner = spec.players[outcome.winner]
    return f"{first} - {second}: {winner} ({game.sides[side]}) wins ({reason}) in {plies} plies"


def report(spec: TournamentSpec, table: Table) -> list[str]:
    """The crosstable, each meeting's Elo difference, and the endings."""
    total = len(schedule(spec))
    names = spec.players
    lines = [f"Crosstable after {table.games} of {total} games", ""]
    lines += crosstable_rows(table, names)
    lines += ["", "Meetings (Elo difference of the first over the second, 95% interval)"]
    by_player = {line.player: line for line in table.lines}
    for a, b in spec.meetings():
        meeting = by_player[a].meeting(b)
        if meeting is not None:
            points = by_player[a].against[b]
            lines.append(
                f"  {names[a]} - {names[b]}: {sum(points):g}/{len(points)}, {meeting.text()}"
            )
    endings = ", ".join(f"{reason} {count}" for reason, count in sorted(table.reasons.items()))
    lines += ["", f"Endings: {endings or 'none yet'}"]
    return lines


if __name__ == "__main__":
    sys.exit(run_alone("tournament", register))
