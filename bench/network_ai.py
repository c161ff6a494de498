"""Network AI figures: search speed from fixed positions, and matches against an older version.

Not part of the test run. Usage::

    python bench/network_ai.py speed [--seconds 5] [--baseline REV]
    python bench/network_ai.py match --baseline REV [-n 40] [--depth 4 | --time 1] [-j 2]
        [--openings FILE]

``speed`` searches each fixed position (the start, the middle of the add moves, two step
positions) for the given processor seconds and prints the depth finished, nodes and nodes
a second,
for the working tree's Network and, with ``--baseline``, for the Network modules of git
revision ``REV``. ``match`` plays the working tree's AI against that revision's AI with
the same search (only the Network modules differ), colours alternating, each pair of
games from the same random opening, or from the openings of ``FILE`` (as ``gamut match
--openings`` reads them; ``bench/network_openings.py`` writes them).
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path
from types import ModuleType
from typing import Any

from gamut_client.match_jobs import in_processes
from gamut_engine.core import Game
from gamut_engine.games.network import NetworkGame
from gamut_engine.match import MatchSpec, read_openings, run_match
from gamut_engine.search import Limits, Searcher

ROOT = Path(__file__).resolve().parent.parent
GAMES = "engine/gamut_engine/games"
BASELINE_PACKAGE = "network_baseline"
ENV_REV = "GAMUT_NETWORK_BASELINE"
ENV_LIMITS = "GAMUT_NETWORK_BASELINE_LIMITS"

POSITIONS: dict[str, str | None] = {
    "start": None,
    "add (ply 10)": "......../.....W.W/W...B.../.B....../..W.W.../......../.B....../.B...... W 10",
    "step A (26)": ".....B../W..W...W/.W.WBWB./.B....../W..BWB../WB..WB../......../.....BB. W 26",
    "step B (26)": ".B.B..B./......../.BWB.WBW/.B.W.B../.W.B.W.W/..W...B./.....W.W/........ W 26",
}
"""Positions the speed figures are measured from, as cs61b position texts."""
SPEED_NODES = 3_000_000
"""A bound on any one speed search, whatever the clock says."""


def baseline_module(rev: str) -> ModuleType:
    """The ``network`` module of git revision ``rev``, importable beside today's.

    Its Network files are copied into a temporary package whose modules import each
    other and nothing else of the games; the engine core and the search are today's.
    """
    name = f"{BASELINE_PACKAGE}.network"
    if name in sys.modules:
        return sys.modules[name]
    folder = Path(tempfile.mkdtemp(prefix="network-baseline-")) / BASELINE_PACKAGE
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    listing = subprocess.run(
        ["git", "ls-tree", "--name-only", rev, f"{GAMES}/"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    for path in listing:
        file = Path(path).name
        if file.startswith("network") and file.endswith(".py"):
            text = subprocess.run(
                ["git", "show", f"{rev}:{path}"],
                cwd=ROOT,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            text = text.replace("gamut_engine.games.network", f"{BASELINE_PACKAGE}.network")
            (folder / file).write_text(text)
    sys.path.insert(0, str(folder.parent))
    return importlib.import_module(name)


def baseline_game(rules: str) -> Game[Any, int]:
    """The baseline revision's Network game (the revision named in the environment)."""
    module = baseline_module(os.environ[ENV_REV])
    game: Game[Any, int] = module.NetworkGame(rules=rules)
    return game


class BaselinePlayer:
    """The AI searching with the baseline revision's Network; limits from the environment."""

    def __init__(self) -> None:
        """Limits are read from the environment: ``depth=4`` or ``time=1.5``."""
        name, _, value = os.environ[ENV_LIMITS].partition("=")
        self.limits = Limits(depth=int(value)) if name == "depth" else Limits(time=float(value))
        self.searcher: Searcher[Any, int] | None = None
        self.last_result: Any = None

    def choose_move(self, game: Any, state: Any) -> int:
        """The baseline's move in ``state`` (converted to the baseline's own state type)."""
        if self.searcher is None:
            self.searcher = Searcher(baseline_game(game.rules))
        old_state = baseline_module(os.environ[ENV_REV]).NetworkState(*tuple(state)[:6])
        self.last_result = self.searcher.search(old_state, self.limits)
        move: int = self.last_result.move
        return move


def speed(game: Game[Any, int], seconds: float, label: str) -> None:
    """Print one line per fixed position: depth finished, nodes and nodes a second.

    Time is processor time, so that other work on the machine does not count: the
    deepening follows the timed search's rule (no iteration starts after half the
    time, none counts unless it ends in time) on the processor clock.
    """
    for name, text in POSITIONS.items():
        state = game.initial_state() if text is None else game.decode(text)
        started = time.process_time()
        depth, nodes, spent, last = 0, 0, 0.0, None
        with closing(Searcher(game).iterate(state, Limits(nodes=SPEED_NODES))) as results:
            for result in results:
                now = time.process_time() - started
                if now > seconds or not result.complete:
                    break
                depth, nodes, spent, last = result.depth, result.stats.nodes, now, result
                if now > seconds / 2:
                    break
        move = "-" if last is None else f"{game.format_move(last.move)} {last.score:+d}"
        rate = nodes / spent if spent else 0.0
        print(
            f"{label:<10} {name:<14} depth {depth:>2} {nodes:>9,} nodes {spent:>5.2f} cpu-s "
            f"{rate:>8,.0f} nodes/s  {move}",
            flush=True,
        )


def match(args: argparse.Namespace) -> None:
    """Play the working tree against the baseline and print the score of the working tree."""
    os.environ[ENV_REV] = args.baseline
    limit = f"depth={args.depth}" if args.depth else f"time={args.time:g}"
    os.environ[ENV_LIMITS] = limit
    baseline_module(args.baseline)
    openings = read_openings(Path(args.openings).read_text()) if args.openings else ()
    spec = MatchSpec(
        "network",
        (f"ai:{limit}", "network_ai:BaselinePlayer"),
        games=args.games,
        options={"rules": args.rules},
        seed=args.seed,
        opening_plies=0 if openings else args.opening,
        openings=openings,
    )

    def report(record: Any) -> None:
        print(
            f"game {record.index:>3}: A side {record.a_side} winner {record.winner} "
            f"{record.reason} after {len(record.moves)} plies",
            flush=True,
        )

    result = run_match(spec, on_game=report, play=in_processes(args.jobs))
    low, high = result.interval.low, result.interval.high
    print(
        f"working tree vs {args.baseline} ({limit}, {args.rules}): "
        f"+{result.wins} ={result.draws} -{result.losses}, score {result.score:.3f} "
        f"[{low:.3f}, {high:.3f}], Elo {result.elo:+.0f}; reasons {dict(result.reasons)}"
    )
    for player, name in ((0, "working tree"), (1, "baseline")):
        tally = result.tally(player)
        depth, rate = tally.mean_depth, tally.nodes_per_second
        print(f"  {name}: mean depth {depth or 0:.2f}, {rate or 0:,.0f} nodes/s")


def main() -> None:
    """Run the ``speed`` or ``match`` command."""
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    fast = commands.add_parser("speed")
    fast.add_argument("--seconds", type=float, default=5.0)
    fast.add_argument("--baseline")
    play = commands.add_parser("match")
    play.add_argument("--baseline", required=True)
    play.add_argument("-n", "--games", type=int, default=40)
    play.add_argument("--depth", type=int)
    play.add_argument("--time", type=float, default=1.0)
    play.add_argument("--opening", type=int, default=2)
    play.add_argument("--openings", help="a file of openings, one a line, instead")
    play.add_argument("--rules", default="cs61b")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.command == "match":
        match(args)
        return
    speed(NetworkGame(), args.seconds, "working")
    if args.baseline:
        os.environ[ENV_REV] = args.baseline
        speed(baseline_game("cs61b"), args.seconds, args.baseline[:10])


if __name__ == "__main__":
    main()
