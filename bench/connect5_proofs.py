"""Time to prove Connect Five's hard puzzles from scratch: deepening search against df-pn.

For every puzzle whose shortest win is a VCT of ``--min-stones`` attacking stones or more
(7 by default), a fresh :class:`ThreatSolver` runs its deepening search (VCF, then VCT of
3 to 15 stones) and a fresh :class:`ProofSearch` its proof-number search, one after the
other in the same process, each with ``--cap`` seconds at most. Each first move found is
checked by another fresh solver at the length its search gave (within ``--cap`` seconds
too). Prints a markdown table::

    nice -n 10 python bench/connect5_proofs.py
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from connect5_puzzles import Puzzle, load_puzzles

from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.games.connect5_board import Connect5State
from gamut_engine.games.connect5_proof import ProofSearch
from gamut_engine.games.connect5_threats import OutOfTimeError, ThreatSolver, Timer

Finder = Callable[[ConnectFiveGame, Connect5State, Timer], tuple[int, int] | None]
"""A forced-win search: the game, the position and a deadline to a move and its plies."""


def deepening(game: ConnectFiveGame, state: Connect5State, timer: Timer) -> tuple[int, int] | None:
    """The solver's deepening search, fresh."""
    return ThreatSolver(game.board).winning_move(state, timer)


def proof_number(
    game: ConnectFiveGame, state: Connect5State, timer: Timer
) -> tuple[int, int] | None:
    """The proof-number search, fresh."""
    return ProofSearch(ThreatSolver(game.board)).winning_move(state, timer)


def timed(finder: Finder, puzzle: Puzzle, cap: float) -> str:
    """One search on ``puzzle``: its seconds, move and stones, and whether it checks out."""
    game = ConnectFiveGame(size=15)
    state = game.decode(puzzle.position)
    started = time.perf_counter()
    found = finder(game, state, (time.perf_counter, started + cap))
    seconds = time.perf_counter() - started
    if found is None:
        return f"none in {seconds:.2f} s"
    move, plies = found
    stones = (plies + 1) // 2
    checker = ThreatSolver(game.board)
    try:
        checked = checker.move_wins(
            state, move, stones, (time.perf_counter, time.perf_counter() + cap)
        )
        verdict = "" if checked else ", NOT CONFIRMED"
    except OutOfTimeError:
        verdict = ", check timed out"
    return f"{seconds:.2f} s, {game.format_move(move)} in {stones}{verdict}"


def main() -> None:
    """Time both searches on every hard puzzle and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-stones", type=int, default=7, help="shortest VCT counted (7)")
    parser.add_argument("--cap", type=float, default=30.0, help="seconds a search (30)")
    args = parser.parse_args()
    print("| puzzle | shortest win | deepening search | proof-number search |")
    print("| --- | --- | --- | --- |")
    for puzzle in load_puzzles():
        if puzzle.kind != "VCT" or puzzle.stones < args.min_stones:
            continue
        before = timed(deepening, puzzle, args.cap)
        after = timed(proof_number, puzzle, args.cap)
        print(
            f"| {puzzle.source} | {puzzle.move} in {puzzle.stones} | {before} | {after} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
