"""Connect Five's proof-number search: its proofs checked independently, its clock, its bound."""

from __future__ import annotations

import time

import pytest

from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.games.connect5_board import Connect5State
from gamut_engine.games.connect5_proof import ProofSearch
from gamut_engine.games.connect5_threats import NO_WIN, VCF, VCT, ThreatSolver
from tests.engine.connect5_brute import BruteForce
from tests.engine.test_connect5_threats import never, puzzles

GAME = ConnectFiveGame(size=15)

FAST = [p for p in puzzles() if p[3] <= 5]
"""Puzzles the proof search settles in a fraction of a second."""


KIND = {"VCF": VCF, "VCT": VCT}
"""The search of each kind of puzzle."""


def prove(state: Connect5State, side: int, depth: int, kind: int) -> tuple[int, int] | None:
    """A fresh proof search's winning move and stones for ``side`` in ``state``."""
    search = ProofSearch(ThreatSolver(GAME.board))
    position = search.lines.position(state.x, state.o)
    return search.prove(position, side, depth, kind, None)


@pytest.mark.parametrize(("position", "kind", "move", "stones"), FAST)
def test_each_fast_puzzle_is_proven_with_a_move_the_solver_confirms(
    position: str, kind: str, move: str, stones: int
) -> None:
    state = GAME.decode(position)
    # Within the puzzle's own length (a win that long exists), so that the independent
    # check below stays cheap: a longer proof takes the depth-first solver minutes.
    found = prove(state, state.turn, stones, KIND[kind])
    assert found is not None
    winning, length = found
    assert length == stones  # never shorter than the shortest win there is
    # The depth-first solver, searching afresh, wins with that move in that many stones.
    assert ThreatSolver(GAME.board).move_wins(state, winning, length)
    del move  # the proof may start with another winning move than the stored one


SHORT = [p for p in FAST if p[3] == 3 and p[1] == "VCF"] + [
    next(p for p in FAST if p[3] == 3 and p[1] == "VCT")
]
"""Puzzles whose wins are short enough for the brute-force check (5 plies); of the VCTs,
whose check takes some seconds each, one."""


@pytest.mark.parametrize(("position", "kind", "move", "stones"), SHORT)
def test_short_proofs_win_against_every_defence(
    position: str, kind: str, move: str, stones: int
) -> None:
    state = GAME.decode(position)
    found = prove(state, state.turn, stones, KIND[kind])
    assert found is not None
    assert found[1] <= stones
    assert BruteForce(GAME).move_wins(state, found[0], 2 * stones - 1)


SWAPPED_NONE = (2, 5, 6, 23, 25, 28)
"""Puzzles where the side *not* to move, were it to attack, has no VCT of 5 stones."""

SWAPPED_WON = (9, 16, 22, 26, 33)
"""Puzzles where that side has one."""


def swapped(index: int) -> tuple[Connect5State, int]:
    """A puzzle's position and the side that is not to move there."""
    state = GAME.decode(puzzles()[index][0])
    return state, 1 - state.turn


def depth_first(state: Connect5State, side: int, depth: int) -> int | None:
    """The depth-first solver's VCT move for ``side`` within ``depth`` stones, or ``None``."""
    solver = ThreatSolver(GAME.board)
    return solver.attack(solver.lines.position(state.x, state.o), side, depth, VCT)


@pytest.mark.parametrize("index", SWAPPED_NONE)
def test_no_win_is_claimed_where_there_is_no_vct(index: int) -> None:
    state, side = swapped(index)
    assert depth_first(state, side, 5) is None
    assert prove(state, side, 5, VCT) is None


@pytest.mark.parametrize("index", SWAPPED_WON)
def test_a_win_is_proven_where_the_depth_first_solver_finds_one(index: int) -> None:
    state, side = swapped(index)
    assert depth_first(state, side, 5) is not None
    found = prove(state, side, 5, VCT)
    assert found is not None
    assert found[1] <= 5
    turned = state._replace(turn=side)
    assert ThreatSolver(GAME.board).move_wins(turned, found[0], found[1])


def test_no_win_at_any_depth_is_claimed_where_the_solver_proves_none() -> None:
    state, side = swapped(28)
    solver = ThreatSolver(GAME.board)
    assert solver.attack(solver.lines.position(state.x, state.o), side, 15, VCT) is None
    # The solver met no depth limit: there is no VCT of any length.
    assert solver.table[(state.x, state.o, 2 * VCT + side)] == NO_WIN * -1
    assert prove(state, side, 15, VCT) is None


def test_a_hard_puzzle_is_proven_where_the_deepening_needs_several_searches() -> None:
    position, _, _, stones = next(p for p in puzzles() if p[1] == "VCT" and p[3] >= 7)
    state = GAME.decode(position)
    found = prove(state, state.turn, 15, VCT)
    assert found is not None
    assert ThreatSolver(GAME.board).move_wins(state, found[0], found[1])
    assert found[1] >= stones


def test_the_search_stops_when_its_clock_says_so() -> None:
    position, _, _, _ = next(p for p in puzzles() if p[1] == "VCT" and p[3] >= 7)
    state = GAME.decode(position)
    reads: list[int] = []

    def clock() -> float:
        reads.append(1)
        return float(len(reads))

    search = ProofSearch(ThreatSolver(GAME.board))
    position_lines = search.lines.position(state.x, state.o)
    # The clock passes the deadline at its 40th read; no wall time is involved.
    assert search.prove(position_lines, state.turn, 15, VCT, (clock, 40.0)) is None
    assert search.timed_out
    assert len(reads) == 40
    # Given no deadline, the same search proves the position.
    assert search.prove(position_lines, state.turn, 15, VCT, None) is not None


def test_the_search_respects_its_node_bound() -> None:
    position, _, _, _ = next(p for p in puzzles() if p[1] == "VCT" and p[3] >= 7)
    state = GAME.decode(position)
    search = ProofSearch(ThreatSolver(GAME.board), node_limit=50)
    lines = search.lines.position(state.x, state.o)
    assert search.prove(lines, state.turn, 15, VCT, None) is None
    assert search.full
    assert len(search.table) <= 50


def test_a_full_table_hands_the_win_to_the_deepening_search() -> None:
    position, _, move, _ = next(p for p in FAST if p[1] == "VCT" and p[3] == 5)
    state = GAME.decode(position)
    solver = ThreatSolver(GAME.board)
    search = ProofSearch(solver, node_limit=4)
    found = search.winning_move(state, never())
    assert search.full
    assert found is not None
    assert GAME.format_move(found[0]) == move  # the deepening finds the shortest win


def test_the_game_looks_for_wins_with_the_proof_search() -> None:
    position, _, _, _ = SHORT[0]
    state = GAME.decode(position)
    game = ConnectFiveGame(size=15)
    # A clock other than time.perf_counter keeps the search in Python, even where the
    # compiled one is built (which tests/engine/test_connect5_core.py holds to this one).
    python_never = (lambda: time.perf_counter(), float("inf"))
    found = game.forced_win(state, python_never)
    assert found is not None
    assert game.prover.nodes > 0
    # The next search of a position inside the proof is settled by the proof kept.
    nodes = game.prover.nodes
    assert game.forced_win(state, python_never) == found
    assert game.prover.nodes - nodes <= 2
