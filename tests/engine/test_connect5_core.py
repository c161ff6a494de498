"""Connect Five's compiled search against the Python engine, which is its reference.

Random and searched positions go through both, and every answer must be the same: the
patterns of every line, the evaluation, the move order, the VCF and VCT searches, the
proof-number search, and alpha-beta at fixed depths and node budgets (score, move,
principal variation and nodes visited). ``GAMUT_DIFFERENTIAL_SCALE=10`` plays ten
times as many cases.
"""

from __future__ import annotations

import os
import struct
import time

import pytest

from gamut_engine.games import connect5_core
from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.games.connect5_board import Connect5State
from gamut_engine.games.connect5_core import GUARD_STONES, CompiledConnectFive
from gamut_engine.games.connect5_eval import evaluate
from gamut_engine.games.connect5_lines import KINDS, SIDE_SPAN
from gamut_engine.games.connect5_proof import ProofSearch
from gamut_engine.games.connect5_threats import VCF, VCT, ThreatSolver
from gamut_engine.search import Limits, Searcher
from tests.engine.test_connect5_patterns import random_game
from tests.engine.test_connect5_threats import puzzles

pytestmark = pytest.mark.skipif(
    not connect5_core.built() and not os.environ.get("CI"),
    reason="Connect Five's compiled search is not built (no C compiler at install)",
)

SCALE = int(os.environ.get("GAMUT_DIFFERENTIAL_SCALE", "1"))
"""How many times the default number of cases to play."""


def python_clock() -> float:
    """The real clock, but not ``time.perf_counter`` itself: the search then stays in Python."""
    return time.perf_counter()


def positions(game: ConnectFiveGame, games: int, plies: int, seed: int) -> list[Connect5State]:
    """The search's positions of random games of ``plies`` moves, most among its first few."""
    return [
        state
        for number in range(games * SCALE)
        for state in random_game(game, seed * 1000 + number, plies)[1:]
    ]


def compiled(game: ConnectFiveGame) -> CompiledConnectFive:
    """The game's compiled search, which these tests need."""
    found = game.compiled_search()
    assert found is not None
    return found


def masks_of(game: ConnectFiveGame, flags: bytes) -> tuple[int, ...]:
    """The core's per-cell pattern flags in the Python layout of threat masks."""
    cells = game.board.cell_count
    masks = [0] * (2 * SIDE_SPAN)
    for index, flag in enumerate(struct.unpack(f"<{2 * cells}H", flags)):
        side, cell = divmod(index, cells)
        for bit in range(4 * KINDS):
            if flag >> bit & 1:
                masks[side * SIDE_SPAN + bit] |= game.board.bits[cell]
    return tuple(masks)


@pytest.mark.parametrize(("size", "seed"), [(15, 1), (19, 2), (9, 3), (6, 4)])
def test_patterns_evaluation_and_move_order_are_the_pythons(size: int, seed: int) -> None:
    game = ConnectFiveGame(size=size)
    core = compiled(game)
    checked = 0
    for state in positions(game, games=12, plies=size * size // 2, seed=seed):
        board = core.cells(state)
        flags, counts = core.core.patterns(board)
        assert masks_of(game, flags) == state.masks
        assert counts == state.counts
        assert core.core.evaluate(board, state.turn) == evaluate(state)
        if game.outcome(state) is None:
            assert core.core.search_moves(board, state.turn) == game.search_moves(state)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("seed", [5, 6])
def test_vcf_and_vct_find_the_same_moves(seed: int) -> None:
    game = ConnectFiveGame(size=15)
    core = compiled(game)
    solver = ThreatSolver(game.board)
    found = 0
    for state in positions(game, games=6, plies=36, seed=seed)[6::2]:
        if game.outcome(state) is not None:
            continue
        position = solver.lines.position_of(state)
        board = core.cells(state)
        for kind, depth in ((VCF, 8), (VCT, 4)):
            for side in (0, 1):
                mine = solver._solve(position, side, depth, kind, None)
                theirs, timed_out = core.core.solve(board, side, depth, kind, float("inf"))
                assert not timed_out
                assert theirs == (-1 if mine is None else mine)
                found += mine is not None
    assert found > 10


def test_the_proof_search_proves_the_same_wins() -> None:
    game = ConnectFiveGame(size=15)
    core = compiled(game)
    prover = ProofSearch(ThreatSolver(game.board))
    proven = 0
    for text, _, _, stones in puzzles()[: 9 * SCALE]:
        state = game.decode(text)
        position = prover.lines.position_of(state)
        for kind, depth in ((VCF, 20), (VCT, stones + 2)):
            mine = prover.prove(position, state.turn, depth, kind, None)
            theirs, status = core.core.prove(core.cells(state), state.turn, depth, kind, 1e9)
            assert status == "done"
            assert theirs == mine
            proven += mine is not None
    assert proven >= 9


def test_a_full_proof_table_stops_the_proof_search_as_pythons_does() -> None:
    game = ConnectFiveGame(size=15)
    text = max(puzzles(), key=lambda puzzle: puzzle[3])[0]
    state = game.decode(text)
    prover = ProofSearch(ThreatSolver(game.board), node_limit=50)
    assert prover.prove(prover.lines.position_of(state), state.turn, 11, VCT, None) is None
    assert prover.full
    small = CompiledConnectFive(game.board, game.max_plies, node_limit=50)
    assert small.core.prove(small.cells(state), state.turn, 11, VCT, 1e9) == (None, "full")


@pytest.mark.parametrize(("size", "depths"), [(9, (1, 2, 3)), (15, (1, 2))])
def test_alpha_beta_at_fixed_depths_is_the_pythons(size: int, depths: tuple[int, ...]) -> None:
    game = ConnectFiveGame(size=size)
    core = compiled(game)
    for state in positions(game, games=6, plies=24, seed=size)[::5]:
        if game.outcome(state) is not None:
            continue
        for depth in depths:
            mine = Searcher(game, clock=python_clock).search(state, Limits(depth=depth))
            core.clear()
            theirs = Searcher(game).search(state, Limits(depth=depth))
            assert (theirs.score, theirs.move, theirs.pv) == (mine.score, mine.move, mine.pv)
            assert theirs.stats.nodes == mine.stats.nodes
            assert theirs.stats.tt_cutoffs == mine.stats.tt_cutoffs


def test_the_timed_search_within_a_node_budget_is_the_pythons() -> None:
    """Late-move reductions, re-searches and extensions as well: a node budget, no clock."""
    game = ConnectFiveGame(size=15)
    core = compiled(game)
    for state in positions(game, games=4, plies=30, seed=7)[::9]:
        if game.outcome(state) is None:
            mine = Searcher(game, clock=python_clock).search(state, Limits(nodes=3000))
            core.clear()
            theirs = Searcher(game).search(state, Limits(nodes=3000))
            assert (theirs.score, theirs.move, theirs.pv) == (mine.score, mine.move, mine.pv)
            assert (theirs.depth, theirs.stats.nodes) == (mine.depth, mine.stats.nodes)


def test_the_threat_phase_answers_as_pythons() -> None:
    game = ConnectFiveGame(size=15)
    core = compiled(game)
    short = [puzzle for puzzle in puzzles() if puzzle[3] <= 3]
    for text, _, _, _ in short[: 3 * SCALE]:
        state = game.decode(text)
        mine = game.prover.winning_move(game.search_state(state), (python_clock, 1e12))
        assert mine is not None
        assert core.forced_win(state, float("inf")) == mine
        # Another move instead of the win: the other side must now stop the threat.
        threatened = game.play(state, game.search_moves(state)[-1])
        replies = game.search_moves(threatened)[:3]
        python = game.solver.defences(game.search_state(threatened), replies, (python_clock, 1e12))
        assert core.defences(threatened, replies, float("inf")) == python


def test_the_root_guard_keeps_only_moves_that_stop_the_opponents_vct() -> None:
    game = ConnectFiveGame(size=15)
    core = compiled(game)

    def vct_after(state: Connect5State, move: int) -> tuple[int, int] | None:
        """The Python prover's VCT for the opponent after ``move``, within the guard's reach."""
        after = game.play(state, move)
        position = game.solver.lines.position_of(game.search_state(after))
        return game.prover.prove(position, after.turn, GUARD_STONES, VCT, None)

    opening = game.decode(game.encode(random_game(game, 5, 3)[-1]))
    assert core.guards(opening, game.search_moves(opening), float("inf")) == game.search_moves(
        opening
    )
    guarded = 0
    short = [puzzle for puzzle in puzzles() if puzzle[3] <= 3]
    for text, _, _, _ in short[: 3 * SCALE]:
        state = game.decode(text)
        # Another move instead of the win: the other side must now stop the threat.
        threatened = game.play(state, game.search_moves(state)[-1])
        moves = game.search_moves(threatened)
        kept = core.guards(threatened, moves, float("inf"))
        assert kept
        assert set(kept) <= set(moves)
        if len(kept) < len(moves):
            guarded += 1
            assert all(vct_after(threatened, move) is None for move in kept)
            dropped = [move for move in moves if move not in kept]
            assert vct_after(threatened, dropped[-1]) is not None  # the last is seldom an answer
    assert guarded


def test_a_move_is_checked_as_the_python_solver_checks_it() -> None:
    game = ConnectFiveGame(size=15)
    core = compiled(game)
    for text, _, move, stones in puzzles()[: 10 * SCALE]:
        state = game.decode(text)
        for cell in (game.parse_move(state, move), game.search_moves(state)[-1]):
            python = ThreatSolver(game.board).move_wins(state, cell, stones)
            assert core.move_wins(state, cell, stones, float("inf")) == python


def test_a_passed_deadline_stops_every_search_at_once() -> None:
    game = ConnectFiveGame(size=15)
    core = compiled(game)
    text = max(puzzles(), key=lambda puzzle: puzzle[3])[0]
    state = game.decode(text)
    board = core.cells(state)
    assert core.core.solve(board, state.turn, 11, VCT, 0.0) == (-1, True)
    assert core.core.prove(board, state.turn, 11, VCT, 0.0) == (None, "timed out")
    assert core.forced_win(state, 0.0) is None
    with pytest.raises(TimeoutError):
        core.move_wins(state, game.search_moves(state)[0], 11, 0.0)
    report = core.search_root(
        state, 3, game.search_moves(state), exact=True, seconds=0.0, nodes=0, new_run=True
    )
    assert not report.complete
    assert report.searched == 0


def test_the_game_searches_in_python_without_the_compiled_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(connect5_core, "Core", None)
    game = ConnectFiveGame(size=9)
    assert game.compiled_search() is None
    state = game.initial_state()
    for move in (40, 41, 31, 49):
        state = game.play(state, move)
    result = Searcher(game).search(state, Limits(depth=2))
    assert result.stats.nodes > 1
    assert result.move in game.legal_moves(state)


def test_a_proven_win_is_proven_again_at_once() -> None:
    game = ConnectFiveGame(size=15)
    core = compiled(game)
    state = game.decode(next(p for p in puzzles() if p[3] >= 5)[0])
    found = core.forced_win(state, float("inf"))
    assert found is not None
    nodes = core.core.nodes()[1]
    assert core.forced_win(state, float("inf")) == found
    assert core.core.nodes()[1] - nodes <= 2
