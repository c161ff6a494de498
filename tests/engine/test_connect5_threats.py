"""Connect Five's threat-space search: the puzzles from real games, defence, and the clock."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from gamut_engine.core import Timer
from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.games.connect5_board import Connect5State
from gamut_engine.games.connect5_eval import order_moves
from gamut_engine.games.connect5_threats import NO_WIN, ThreatSolver, sides
from gamut_engine.search import Limits, Searcher, is_decisive
from tests.engine.connect5_brute import BruteForce

PUZZLES = Path(__file__).parents[2] / "bench" / "connect5_puzzles.txt"
"""The forced-win puzzles ``bench/ai.py`` times the AI on."""

BRUTE_FORCE_PLIES = 5
"""Wins of at most this many plies are checked by brute force over every defence."""

GAME = ConnectFiveGame(size=15)


def puzzles() -> list[tuple[str, str, str, int]]:
    """(position, kind, first move, attacking stones) of every puzzle."""
    rows = []
    for line in PUZZLES.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            position, kind, move, stones, _ = line.split("\t")
            rows.append((position, kind, move, int(stones)))
    return rows


def never() -> Timer:
    """A deadline that is never reached."""
    return (time.perf_counter, float("inf"))


def test_there_are_at_least_thirty_puzzles_of_both_kinds() -> None:
    kinds = [kind for _, kind, _, _ in puzzles()]
    assert len(kinds) >= 30
    assert {"VCF", "VCT"} <= set(kinds)


@pytest.mark.parametrize(("position", "kind", "move", "stones"), puzzles())
def test_the_solver_finds_each_puzzles_first_move(
    position: str, kind: str, move: str, stones: int
) -> None:
    state = GAME.decode(position)
    own, enemy = sides(state)
    solver = ThreatSolver(GAME.board)
    search = solver.vcf if kind == "VCF" else solver.vct
    found = search(own, enemy, stones)
    assert found is not None
    assert GAME.format_move(found) == move


SHORT = [p for p in puzzles() if 2 * p[3] - 1 <= BRUTE_FORCE_PLIES]


@pytest.mark.parametrize(("position", "kind", "move", "stones"), SHORT)
def test_short_puzzles_are_won_against_every_defence(
    position: str, kind: str, move: str, stones: int
) -> None:
    state = GAME.decode(position)
    brute = BruteForce(GAME)
    winning = GAME.parse_move(state, move)
    assert brute.move_wins(state, winning, 2 * stones - 1)
    # The check can also say no: the corner cell wins nothing in that many plies.
    corner = next(cell for cell in (0, 14, 210, 224) if cell in GAME.legal_moves(state))
    assert not brute.move_wins(state, corner, 2 * stones - 1)


def test_the_search_plays_a_proven_win_at_once() -> None:
    position, _, _, stones = min((p for p in puzzles() if p[1] == "VCT"), key=lambda p: p[3])
    state = GAME.decode(position)
    # A clock that moves a microsecond a read: the tenth of the second the solver has to
    # look for a win is 100,000 reads, however loaded the machine.
    reads = iter(range(10**9))
    searcher = Searcher(GAME, clock=lambda: next(reads) * 1e-6)
    result = searcher.search(state, Limits(time=1.0))
    assert is_decisive(result.score)
    assert result.score > 0
    assert ThreatSolver(GAME.board).move_wins(state, result.move, 2 * stones)


# O to move would play g8: a four along row 8 (d8-g8, blocked at c8) and one down column
# g (g8, g10-g12, blocked at g13) at once. X, to move, must take that away; X's other
# stones leave O nothing else.
DOUBLE_FOUR = {
    "O": ("d8", "e8", "f8", "g10", "g11", "g12"),
    "X": ("c8", "g13", "e9", "f10", "h11", "h9"),
}


def double_four_threat() -> Connect5State:
    """X to move; O threatens to win by a double four at g8."""
    bits = GAME.board.bits
    stones = {
        side: sum(bits[GAME.parse_move(GAME.initial_state(), cell)] for cell in cells)
        for side, cells in DOUBLE_FOUR.items()
    }
    return GAME.state_from_stones(stones["X"], stones["O"], 0)


def test_defences_keep_exactly_the_moves_that_stop_the_threat() -> None:
    state = double_four_threat()
    moves = order_moves(GAME.board, GAME.search_state(state))  # not narrowed to the answers
    kept = GAME.defences(state, moves, never())
    assert {GAME.format_move(move) for move in kept} == {"g8", "g9", "h8"}
    assert len(kept) < len(moves)
    # The search's own move list already holds only the answers to the threat.
    assert set(GAME.search_moves(state)) == set(kept)
    dropped = [move for move in moves if move not in kept]
    brute = BruteForce(GAME)
    for move in kept + dropped[:1]:
        o_wins = brute.wins_within(GAME.play(state, move), 3)
        assert o_wins == (move not in kept), GAME.format_move(move)


def test_the_solver_stops_at_its_deadline() -> None:
    position, _, _, stones = next(p for p in puzzles() if p[1] == "VCT" and p[3] >= 4)
    own, enemy = sides(GAME.decode(position))
    reads = []

    def clock() -> float:
        reads.append(1)
        return float(len(reads))

    solver = ThreatSolver(GAME.board)
    assert solver.vct(own, enemy, stones, (clock, 3.0)) is None
    assert solver.timed_out
    assert len(reads) == 3


def test_a_search_that_meets_no_depth_limit_stops_deepening() -> None:
    state = GAME.initial_state()
    for cell in ("h8", "a1", "i8", "o15"):  # X has two in a row; O's stones are far away
        state = GAME.play(state, GAME.parse_move(state, cell))
    solver = ThreatSolver(GAME.board)
    assert solver.winning_move(state, never()) is None
    # Every threat was followed to its end, so the position is stored as lost at any
    # depth, and a search of any depth is settled by that entry at once.
    assert solver.table[(state.x, state.o, 2 * 1 + state.turn)] == -NO_WIN
    nodes = solver.nodes
    assert solver.vct(state.x, state.o, 15) is None
    assert solver.nodes == nodes + 1
