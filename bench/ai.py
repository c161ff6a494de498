"""The AI's figures for every game and size, printed as markdown tables.

Three parts, each over the same eight configurations (Network cs61b and 2015, Connect
Five 15×15, Lines of Action 5×5, 6×6 and 8×8, Crusher n=3 and n=4):

1. Speed and depth: from a fixed set of positions (seeded random games stopped at set
   plies) level 8 searches once with the game's full move budget (the standard 5 s for
   Network and Crusher, 10 s for Lines of Action, cells/5 s for Connect Five) times
   ``--budget``; nodes per second and the depth it completed. One search at a time.
2. Against random: ``--random-ai`` (default ``ai:8,budget=0.1``: full strength at a
   tenth of a second a move) against the random player over ``--games`` games (default
   100), colours alternating.
3. Adjacent levels: level L+1 against level L for L = 1…7, ``--level-games`` games a pair
   (default 10), every level's time scaled so that level 8 has ``--level-budget`` seconds
   a move (default 0.5), each pair of games opened by ``--opening`` random plies.

Two more: ``puzzles`` (Connect Five forced wins, 1 s each) and ``overruns``: the
largest time past the budget of any move of two games of ``ai:time=T`` against itself
at each of ``--overrun-budgets``, in wall time and in the program's own CPU time, and
the same through the server's AI pool for ``--overrun-pool``; with ``--baseline SRC``
(a checkout of an earlier commit) each is measured with that version first, in the same
run (see ``bench/overruns.py``).

Parts 2 and 3 play ``--jobs`` games at once (default 2); part 3 reports each pair on
standard error as it ends. Not part of the test run.
The defaults take about half an hour on two cores (the overruns some six minutes, twelve
with a baseline); ``--quick`` shortens the others to about two. Usage:
``python bench/ai.py [--quick] [--only loa] [--parts speed,random,levels]``, or
``python bench/ai.py --parts overruns --baseline /tmp/before`` for the clock alone.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from connect5_puzzles import Puzzle, load_puzzles
from overruns import CURRENT, Game, measure, table

from gamut_client.match_jobs import in_processes
from gamut_engine import AnyGame, load_game
from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.games.connect5_threats import OutOfTimeError, ThreatSolver
from gamut_engine.match import MatchResult, MatchSpec, run_match
from gamut_engine.match_tally import search_figures
from gamut_engine.players import AIPlayer
from gamut_engine.search import Limits, Searcher, is_decisive, move_budget


@dataclass(frozen=True)
class Config:
    """One game and size of the benchmark."""

    label: str
    """Name in the tables."""
    game: str
    """Registry name."""
    options: dict[str, Any]
    """Options for ``load_game``."""
    plies: tuple[int, ...]
    """Plies of random play before each fixed position of the speed part."""


CONFIGS = (
    Config("Network cs61b", "network", {}, (0, 10, 24)),
    Config("Network 2015", "network", {"rules": "2015"}, (0, 10, 24)),
    Config("Connect Five 15×15", "connect5", {"size": 15}, (2, 10, 20)),
    Config("Lines of Action 5×5", "loa", {"size": 5}, (0, 6, 12)),
    Config("Lines of Action 6×6", "loa", {"size": 6}, (0, 8, 16)),
    Config("Lines of Action 8×8", "loa", {"size": 8}, (0, 10, 20)),
    Config("Crusher n=3", "crusher", {"n": 3}, (0, 6, 12)),
    Config("Crusher n=4", "crusher", {"n": 4}, (0, 10, 20)),
)
"""Every configuration, in table order."""

LEVEL_PAIRS = tuple(range(1, 8))
"""The weaker level of each adjacent pair."""

SEED = 2024
"""Root of every random choice, so runs are comparable."""


@dataclass(frozen=True)
class Speed:
    """What level 8 did from the fixed positions of one configuration."""

    budget: float
    """Seconds a move it was given."""
    nodes_per_second: float
    """Nodes generated over seconds spent, all positions together."""
    depths: tuple[int, ...]
    """The depth completed from each position."""
    seconds: tuple[float, ...]
    """The seconds each search took."""


def fixed_positions(game: AnyGame, plies: tuple[int, ...]) -> list[Any]:
    """One position per entry of ``plies``, from seeded random games.

    Each is still running and offers the side to move no immediate win, which would end
    the search after one ply and say nothing about its speed.
    """
    positions = []
    for index, count in enumerate(plies):
        for attempt in range(100):
            rng = random.Random(f"{SEED}:{index}:{attempt}")
            state = game.initial_state()
            for _ in range(count):
                if game.outcome(state) is not None:
                    break
                state = game.play(state, rng.choice(game.legal_moves(state)))
            if game.outcome(state) is None and not _wins_at_once(game, state):
                positions.append(state)
                break
    return positions


def _wins_at_once(game: AnyGame, state: Any) -> bool:
    """Whether the side to move has a move that wins the game."""
    side = game.to_move(state)
    for move in game.legal_moves(state):
        outcome = game.outcome(game.play(state, move))
        if outcome is not None and outcome.winner == side:
            return True
    return False


def measure_speed(config: Config, scale: float) -> Speed:
    """Level 8 from each fixed position with the game's move budget times ``scale``."""
    game = load_game(config.game, **config.options)
    budget = move_budget(game) * scale
    nodes, spent, depths, seconds = 0, 0.0, [], []
    for state in fixed_positions(game, config.plies):
        player = AIPlayer(8, budget=budget, seed=SEED)
        player.choose_move(game, state)
        depth, _ = search_figures(player, None)
        result = player.last_result
        assert result is not None
        assert depth is not None
        nodes += result.stats.nodes
        spent += result.stats.elapsed
        depths.append(depth)
        seconds.append(result.stats.elapsed)
    return Speed(budget, nodes / spent if spent else 0.0, tuple(depths), tuple(seconds))


def versus_random(config: Config, spec: str, games: int, jobs: int) -> MatchResult:
    """``spec`` against the random player."""
    match = MatchSpec(config.game, (spec, "random"), games, config.options, seed=SEED)
    return run_match(match, play=in_processes(jobs))


def level_ladder(config: Config, args: argparse.Namespace) -> list[MatchResult]:
    """Each level from 2 to 8 against the level below it."""
    results = []
    for weaker in LEVEL_PAIRS:
        budget = f"budget={args.level_budget:g}"
        players = (f"ai:{weaker + 1},{budget}", f"ai:{weaker},{budget}")
        match = MatchSpec(
            config.game,
            players,
            args.level_games,
            config.options,
            seed=SEED + weaker,
            opening_plies=args.opening,
        )
        result = run_match(match, play=in_processes(args.jobs))
        results.append(result)
        print(
            f"{config.label}, {weaker + 1} vs {weaker}: {_wdl(result)} ({result.elapsed:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    return results


@dataclass(frozen=True)
class Solved:
    """How the AI did on one forced-win puzzle."""

    puzzle: Puzzle
    """The puzzle."""
    won: bool
    """Whether the move it chose wins by force (checked by a fresh solver)."""
    seconds: float
    """Seconds it took."""
    proven: bool
    """Whether it proved the win itself (a decisive score) rather than finding the move."""


def solve_puzzles(seconds: float) -> list[Solved]:
    """A fresh timed search of ``seconds`` on every puzzle; each move checked afterwards."""
    solved = []
    for puzzle in load_puzzles():
        game = ConnectFiveGame(size=15)
        state = game.decode(puzzle.position)
        result = Searcher(game).search(state, Limits(time=seconds))
        proven = result.score > 0 and is_decisive(result.score)
        # A proven win may be longer than the shortest: it is checked at its own length.
        stones = max(puzzle.stones + 2, (result.depth + 1) // 2 if proven else 0)
        won = move_checks(game, state, result.move, stones)
        solved.append(Solved(puzzle, won, result.stats.elapsed, proven))
    return solved


def move_checks(game: ConnectFiveGame, state: Any, move: int, stones: int) -> bool:
    """Whether a fresh solver finds ``move`` winning within ``stones`` stones in 30 s.

    The depth-first solver, compiled where it is built (a proof of 11 stones can take it
    longer than 30 s in Python on a loaded machine).
    """
    compiled = fresh_compiled(game)
    if compiled is not None:
        try:
            return bool(compiled.move_wins(state, move, stones, 30))
        except TimeoutError:
            return False
    checker = ThreatSolver(game.board)
    try:
        return checker.move_wins(state, move, stones, (time.perf_counter, time.perf_counter() + 30))
    except OutOfTimeError:
        return False


def fresh_compiled(game: ConnectFiveGame) -> Any:
    """A new compiled search of ``game``'s board, where the engine has one built."""
    try:  # absent from engines before the compiled core, which this bench also runs
        from gamut_engine.games.connect5_core import CompiledConnectFive, built
    except ImportError:
        return None
    return CompiledConnectFive(game.board, game.max_plies) if built() else None


def puzzle_table(solved: list[Solved], seconds: float) -> list[str]:
    """The puzzles part as markdown: share solved by kind and length."""
    lines = [
        f"| puzzles | count | solved in {seconds:g} s | proven | mean seconds |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    groups: dict[str, list[Solved]] = {}
    for entry in solved:
        short = "up to 4 stones" if entry.puzzle.stones <= 4 else "5 stones or more"
        groups.setdefault(f"{entry.puzzle.kind}, {short}", []).append(entry)
    groups["all"] = solved
    for label, entries in sorted(groups.items(), key=lambda item: item[0] == "all"):
        won = sum(entry.won for entry in entries)
        proven = sum(entry.proven for entry in entries)
        mean = sum(entry.seconds for entry in entries) / len(entries)
        lines.append(
            f"| {label} | {len(entries)} | {won} ({won / len(entries):.0%}) | {proven} | "
            f"{mean:.2f} |"
        )
    return lines


def speed_table(rows: list[tuple[Config, Speed]]) -> list[str]:
    """Part 1 as markdown."""
    lines = [
        "| game | budget a move | positions | nodes/s | depth reached (each position) | "
        "seconds used (mean) |",
        "| --- | ---: | ---: | ---: | --- | ---: |",
    ]
    for config, speed in rows:
        depths = ", ".join(str(depth) for depth in speed.depths)
        mean_seconds = sum(speed.seconds) / len(speed.seconds)
        lines.append(
            f"| {config.label} | {speed.budget:g} s | {len(speed.depths)} | "
            f"{speed.nodes_per_second:,.0f} | {depths} | {mean_seconds:.2f} |"
        )
    return lines


def random_table(rows: list[tuple[Config, MatchResult]]) -> list[str]:
    """Part 2 as markdown."""
    lines = [
        "| game | AI | games | won-drawn-lost | score | 95% CI | mean plies | AI depth |",
        "| --- | --- | ---: | --- | ---: | --- | ---: | ---: |",
    ]
    for config, result in rows:
        plies = sum(record.plies for record in result.records) / len(result.records)
        depth = result.tally(0).mean_depth
        lines.append(
            f"| {config.label} | {result.spec.players[0]} | {len(result.records)} | "
            f"{_wdl(result)} | {result.score:.1%} | {_ci(result)} | {plies:.0f} | "
            f"{'-' if depth is None else f'{depth:.1f}'} |"
        )
    return lines


def levels_table(rows: list[tuple[Config, list[MatchResult]]]) -> list[str]:
    """Part 3 as markdown: the stronger level's score, then its wins-draws-losses."""
    heads = " | ".join(f"{weaker + 1} vs {weaker}" for weaker in LEVEL_PAIRS)
    lines = [f"| game | {heads} |", "| --- |" + " ---: |" * len(LEVEL_PAIRS)]
    for config, results in rows:
        cells = " | ".join(f"{r.score:.0%} ({_wdl(r)})" for r in results)
        lines.append(f"| {config.label} | {cells} |")
    return lines


def _wdl(result: MatchResult) -> str:
    return f"{result.wins}-{result.draws}-{result.losses}"


def _ci(result: MatchResult) -> str:
    return f"{result.interval.low:.0%}–{result.interval.high:.0%}"


def parse_args() -> argparse.Namespace:
    """The command line; ``--quick`` lowers every default that is not given."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a run of a couple of minutes")
    parser.add_argument("--budget", type=float, help="scale of the speed part's budget (1)")
    parser.add_argument("--games", type=int, help="games against random (100)")
    parser.add_argument("--random-ai", default="ai:8,budget=0.1", help="AI against random")
    parser.add_argument("--level-games", type=int, help="games per pair of levels (10)")
    parser.add_argument("--level-budget", type=float, help="level 8's seconds a move (0.5)")
    parser.add_argument("--opening", type=int, default=2, help="random plies, level games")
    parser.add_argument("--jobs", type=int, default=2, help="games at once (2)")
    parser.add_argument("--only", help="configurations whose label contains this text")
    parser.add_argument(
        "--parts", default="speed,puzzles,overruns,random,levels", help="parts to run"
    )
    parser.add_argument("--puzzle-time", type=float, default=1.0, help="seconds a puzzle (1)")
    parser.add_argument(
        "--overrun-budgets", default="0.1,0.2,0.5,1", help="seconds a move of the overrun games"
    )
    parser.add_argument("--overrun-plies", type=int, default=16, help="moves an overrun game")
    parser.add_argument(
        "--overrun-pool",
        default="Connect Five 15×15,Lines of Action 8×8",
        help="configurations also measured through the server's AI pool ('' for none)",
    )
    parser.add_argument("--baseline", help="another source tree to measure overruns of first")
    args = parser.parse_args()
    quick = args.quick
    defaults = {"budget": (1.0, 0.1), "games": (100, 20), "level_games": (10, 2)}
    defaults["level_budget"] = (0.5, 0.1)
    for name, (full, short) in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, short if quick else full)
    return args


def overrun_part(args: argparse.Namespace, configs: list[Config]) -> list[str]:
    """The overrun part: every configuration and budget, with the baseline first if given."""
    sources = [Path(args.baseline).resolve(), CURRENT] if args.baseline else [CURRENT]
    names = ["before", "after"] if args.baseline else ["this version"]
    games = [Game(config.label, config.game, config.options) for config in configs]
    pooled = set(filter(None, args.overrun_pool.split(",")))
    rows = measure(
        sources,
        games,
        [float(text) for text in args.overrun_budgets.split(",")],
        plies=args.overrun_plies,
        pool_games=[game for game in games if game.label in pooled],
    )
    return table(rows, names)


def run_part(title: str, body: Callable[[], list[str]]) -> None:
    """Print one part's heading and table, with the time it took."""
    started = time.perf_counter()
    lines = body()
    print(f"\n### {title}\n")
    print("\n".join(lines))
    print(f"\n({time.perf_counter() - started:.0f} s)", flush=True)


def main() -> None:
    """Run the parts asked for and print their tables."""
    args = parse_args()
    configs = [c for c in CONFIGS if args.only is None or args.only.lower() in c.label.lower()]
    parts = set(args.parts.split(","))
    print(
        f"Settings: speed budget × {args.budget:g}; {args.random_ai} vs random, {args.games} "
        f"games; levels at level-8 budget {args.level_budget:g} s, {args.level_games} games a "
        f"pair, {args.opening} opening plies; {args.jobs} jobs; seed {SEED}",
        flush=True,
    )
    if "speed" in parts:
        run_part(
            "Speed and depth of level 8",
            lambda: speed_table([(c, measure_speed(c, args.budget)) for c in configs]),
        )
    if "puzzles" in parts:
        run_part(
            "Connect Five forced-win puzzles",
            lambda: puzzle_table(solve_puzzles(args.puzzle_time), args.puzzle_time),
        )
    if "overruns" in parts:
        run_part("Largest overrun of a move's time", lambda: overrun_part(args, configs))
    if "random" in parts:
        run_part(
            "Against the random player",
            lambda: random_table(
                [(c, versus_random(c, args.random_ai, args.games, args.jobs)) for c in configs]
            ),
        )
    if "levels" in parts:
        run_part(
            "Each level against the one below",
            lambda: levels_table([(c, level_ladder(c, args)) for c in configs]),
        )


if __name__ == "__main__":
    main()
