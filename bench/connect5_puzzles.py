"""Forced-win puzzles for Connect Five, found in games the AI played against itself.

Each puzzle is a position from a real game, 15×15, where the side to move wins by
force: by continuous fours (VCF) or by threes and fours (VCT), with the shortest such
win's first move and its length in attacking stones. ``python bench/connect5_puzzles.py
--write`` plays the games and rewrites ``connect5_puzzles.txt``; ``bench/ai.py`` reads
the file and times the AI on every puzzle; the engine's tests check every first move
with the solver and, where the win is short, by brute force.

The games: four plies against level 4's three (fixed depths within level 4's time, so
they are quick and replayable; level 5 was this four-ply search before it was timed),
each opened with four seeded random moves near the centre. A position qualifies when
its side to move has a forced win of three stones or more (nothing that one stone or
an open four already settles); the first such position of each side in each game is
kept, and the next one too when it is of the other kind.

``--add-conceded FILE`` adds positions from games against an outside engine instead:
``bench/connect5_engine.py --positions FILE`` writes the position after each move at
which the engine announced a forced loss for itself, and those of them the solver
proves within ``MAX_STONES`` stones are appended to the puzzles.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from pathlib import Path

from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.games.connect5_board import Connect5State
from gamut_engine.games.connect5_threats import ThreatSolver, sides
from gamut_engine.players import AIPlayer
from gamut_engine.search import get_level, level_limits

PUZZLE_FILE = Path(__file__).with_name("connect5_puzzles.txt")
"""One puzzle a line: position, kind, first move, attacking stones, game and ply."""

SIZE = 15
"""The board the puzzles are on."""

MAX_STONES = 11
"""Longest win looked for, in attacking stones."""

SECONDS = 4.0
"""Time the solver has to decide whether a position is won at all."""

BUDGET = 2.0
"""Level 8's seconds a move in the games, which the two levels' time caps are shares of."""


@dataclass(frozen=True)
class Puzzle:
    """A position whose side to move wins by force."""

    position: str
    """The position in the game's ``encode`` text."""
    kind: str
    """``VCF`` or ``VCT``."""
    move: str
    """The first move of the shortest win found."""
    stones: int
    """Attacking stones of that win, the one completing five included."""
    source: str
    """The game and ply it comes from."""

    @property
    def plies(self) -> int:
        """Plies of the win, the first move and the last included."""
        return 2 * self.stones - 1

    def line(self) -> str:
        """The puzzle as one line of the file."""
        return "\t".join((self.position, self.kind, self.move, str(self.stones), self.source))


def load_puzzles(path: Path = PUZZLE_FILE) -> list[Puzzle]:
    """Every puzzle of the file."""
    puzzles = []
    for text in path.read_text().splitlines():
        if text.strip() and not text.startswith("#"):
            position, kind, move, stones, source = text.split("\t")
            puzzles.append(Puzzle(position, kind, move, int(stones), source))
    return puzzles


def shortest_win(game: ConnectFiveGame, state: Connect5State) -> tuple[str, int, int] | None:
    """The kind, first move and stones of the shortest VCF, else of the shortest VCT."""
    timer = (time.perf_counter, time.perf_counter() + SECONDS)
    if ThreatSolver(game.board).winning_move(state, timer) is None:
        return None
    own, enemy = sides(state)
    for kind in ("VCF", "VCT"):
        for stones in range(1, MAX_STONES + 1):
            solver = ThreatSolver(game.board)
            search = solver.vcf if kind == "VCF" else solver.vct
            move = search(own, enemy, stones)
            if move is not None:
                return kind, move, stones
    return None


def play_game(game: ConnectFiveGame, seed: int) -> list[Connect5State]:
    """The positions of one game of four plies against level 4, from a seeded opening."""
    rng = random.Random(seed)
    state = game.initial_state()
    centre = SIZE // 2
    while state.ply < 4:
        cell = (centre + rng.randint(-2, 2)) * SIZE + centre + rng.randint(-2, 2)
        if not (state.x | state.o) & game.board.bits[cell]:
            state = game.play(state, cell)
    four_plies = AIPlayer(depth=4, time=level_limits(game, get_level(4), budget=BUDGET).time)
    players = (four_plies, AIPlayer(4, budget=BUDGET, seed=seed + 1))
    if seed % 2:
        players = (players[1], players[0])
    positions = []
    while game.outcome(state) is None:
        positions.append(state)
        state = game.play(state, players[state.turn].choose_move(game, state))
    return positions


def puzzles_of(game: ConnectFiveGame, seed: int) -> list[Puzzle]:
    """The qualifying positions of game ``seed``."""
    found: list[Puzzle] = []
    kinds: dict[int, set[str]] = {0: set(), 1: set()}
    for state in play_game(game, seed):
        if len(kinds[state.turn]) == 2:
            continue
        win = shortest_win(game, state)
        if win is None or win[2] < 3:
            continue
        kind, move, stones = win
        if kind in kinds[state.turn]:
            continue
        kinds[state.turn].add(kind)
        source = f"game {seed}, ply {state.ply}"
        found.append(Puzzle(game.encode(state), kind, game.format_move(move), stones, source))
    return found


def conceded_puzzles(game: ConnectFiveGame, path: Path) -> list[Puzzle]:
    """The positions of ``path`` (``bench/connect5_engine.py --positions``) the solver proves."""
    known = {puzzle.position for puzzle in load_puzzles()}
    found = []
    for text in path.read_text().splitlines():
        position, ply, score, _ = text.split("\t")
        if position in known:
            continue
        known.add(position)
        win = shortest_win(game, game.decode(position))
        plies = 100_000 - abs(int(score))
        print(f"ply {ply}, engine mated in {plies}: {win}", flush=True)
        if win is not None:
            kind, move, stones = win
            source = f"engine conceded mate in {plies}, ply {ply}"
            found.append(Puzzle(position, kind, game.format_move(move), stones, source))
    return found


def main() -> None:
    """Play games until enough puzzles are found; print them, or write the file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=36, help="puzzles to find (36)")
    parser.add_argument("--write", action="store_true", help=f"rewrite {PUZZLE_FILE.name}")
    parser.add_argument("--add-conceded", type=Path, metavar="FILE", help="add these positions")
    args = parser.parse_args()
    game = ConnectFiveGame(size=SIZE)
    if args.add_conceded is not None:
        added = conceded_puzzles(game, args.add_conceded)
        with PUZZLE_FILE.open("a") as out:
            out.writelines(puzzle.line() + "\n" for puzzle in added)
        return
    puzzles: list[Puzzle] = []
    seed = 0
    while len(puzzles) < args.count:
        for puzzle in puzzles_of(game, seed):
            print(puzzle.kind, puzzle.move, puzzle.stones, puzzle.source, flush=True)
            puzzles.append(puzzle)
        seed += 1
    if args.write:
        header = "# position\tkind\tfirst move\tattacking stones\tfrom\n"
        PUZZLE_FILE.write_text(header + "".join(p.line() + "\n" for p in puzzles))


if __name__ == "__main__":
    main()
