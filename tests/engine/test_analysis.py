"""The analysis of finished games: marks on planted blunders, none on best play, any game."""

from __future__ import annotations

import math

import pytest

from gamut_engine import Game, load_game
from gamut_engine.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Analysis,
    Budget,
    NoEvaluationError,
    WorkClock,
    analyse,
    mark,
    win_probability,
)
from gamut_engine.analysis.position import judge
from gamut_engine.search import Searcher
from gamut_engine.search.scores import WIN
from tests.engine.toy_games import TakeAway

WORK = 3_000
"""Work a position gets in these tests: enough for every planted blunder, and quick."""


def budget(work: int) -> Budget:
    """``work`` for each position and no wall-clock cap: what these tests judge is the
    work's outcome, the same on a loaded machine (where a cap of seconds would end some
    searches early, and differently from run to run). The cap has a test of its own."""
    return Budget(work=work, seconds=math.inf)


SIXTY_PLIES_TEXT = (
    "a11 d10 a10 a9 a13 a14 d8 c9 e11 e9 d9 f8 c11 d11 h6 e10 c12 f10 c10 h10 g10 g9 c13 c14 "
    "e7 f7 f9 h11 h9 i11 j12 j11 k11 f11 g11 i13 i12 h12 g13 g12 h13 f13 e14 d13 d12 e12 b15 "
    "j9 i10 g14 h15 f14 f12 h14 i14 b14 k12 j10 l11 j13"
)
SIXTY_PLIES = SIXTY_PLIES_TEXT.split()
"""Sixty plies of Connect Five 15×15 between two depth-2 searches, still running."""


def analysed(name: str, moves: str, work: int = WORK, **options: object) -> Analysis:
    """The analysis of the game ``moves`` (separated by spaces) of ``name``."""
    return analyse(load_game(name, **options), moves.split(), budget(work))


def test_a_score_maps_to_a_chance_of_winning_through_the_scale() -> None:
    assert win_probability(0, 300.0) == 0.5
    assert win_probability(300, 300.0) == pytest.approx(math.e / (1 + math.e))
    assert win_probability(-300, 300.0) == pytest.approx(1 / (1 + math.e))
    assert win_probability(WIN - 7, 300.0) == 1.0
    assert win_probability(7 - WIN, 300.0) == 0.0
    assert win_probability(-900_000, 1.0) == 0.0  # far past a float's range, no error


def test_marks_follow_the_chance_lost() -> None:
    assert mark(INACCURACY - 0.001) is None
    assert mark(INACCURACY) == "inaccuracy"
    assert mark(MISTAKE) == "mistake"
    assert mark(BLUNDER) == "blunder"
    assert mark(1.0) == "blunder"


def test_the_work_clock_counts_readings_until_the_wall_clock_cap() -> None:
    wall = [0.0]
    clock = WorkClock(5.0, wall=lambda: wall[0])
    assert [clock() for _ in range(3)] == [1.0, 2.0, 3.0]
    wall[0] = 5.0
    readings = [clock() for _ in range(64)]
    assert math.inf in readings
    assert clock.capped
    assert clock() == math.inf


def test_a_position_takes_no_more_work_than_its_budget() -> None:
    game = load_game("connect5", size=15)
    state = game.initial_state()
    for text in SIXTY_PLIES[:6]:
        state = game.play(state, game.parse_move(state, text))
    judgement = judge(Searcher(game), state, budget(2_000))
    assert 1_990 <= judgement.work <= 2_010  # a quiet position: the work ends the search
    assert not judgement.capped


def test_budgets_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="at least 100"):
        Budget(work=10)
    with pytest.raises(ValueError, match="positive"):
        Budget(seconds=0)


def test_sixty_plies_of_connect_five_are_bounded_in_work() -> None:
    """Every position and every alternative to a move played takes at most its budget."""
    work = 1_000
    report = analyse(load_game("connect5", size=15), SIXTY_PLIES, budget(work))
    assert len(report.plies) == 60
    judged = 61 + sum(ply.best.move != ply.move for ply in report.plies)
    assert report.effort <= judged * (work + 10)


def test_the_same_game_gets_the_same_analysis() -> None:
    moves = " ".join(SIXTY_PLIES[:10])
    first, second = (analysed("connect5", moves, work=1_500, size=15) for _ in range(2))
    assert first == second


def test_a_game_from_another_package_is_analysed_with_a_guessed_scale() -> None:
    report = analysed("hex", "c3 b3 b4 c2 a5 d2", size=5)
    assert not report.calibrated
    assert [ply.move for ply in report.plies] == ["c3", "b3", "b4", "c2", "a5", "d2"]
    assert all(ply.best.cells == (ply.best.move,) for ply in report.plies)


class Unjudged(TakeAway):
    """Take-away without an evaluation of its own."""

    evaluate = Game.evaluate


def test_a_game_without_an_evaluation_says_so() -> None:
    with pytest.raises(NoEvaluationError, match="declares no evaluation"):
        analyse(Unjudged(), ["1"])


def test_an_illegal_move_is_refused() -> None:
    with pytest.raises(ValueError, match="move 2, 'h8', cannot be played: That cell already"):
        analysed("connect5", "h8 h8")


def wins_at_once(name: str, moves: str, **options: object) -> bool:
    """Whether the side to move after ``moves`` has a move that wins the game at once."""
    game = load_game(name, **options)
    state = game.initial_state()
    for text in moves.split():
        state = game.play(state, game.parse_move(state, text))
    side = game.to_move(state)
    return any(
        (outcome := game.outcome(game.play(state, move))) is not None and outcome.winner == side
        for move in game.legal_moves(state)
    )


def test_connect_five_an_open_three_left_to_become_an_open_four_is_a_blunder() -> None:
    """O has c3 d3 e3 open at both ends; X plays far away (m13) and O makes an open four."""
    report = analysed("connect5", "h8 c3 h10 d3 j8 e3 m13 f3 b3 g3", size=15)
    blunder = report.plies[6]
    assert blunder.move == "m13"
    assert blunder.mark == "blunder"
    assert blunder.best.move in ("b3", "f3")  # the blocks that keep the four closed
    assert blunder.after.winner == 1
    assert report.plies[7].forced is not None
    assert report.plies[7].forced.kept
    assert report.summaries[0].blunders >= 1


def test_connect_five_a_forced_win_let_go_is_missed() -> None:
    report = analysed("connect5", "h8 c3 h10 d3 j8 e3 m13 a15", size=15)
    forced = report.plies[7].forced
    assert forced is not None
    assert not forced.kept
    assert forced.moves == 2  # the open four, then five
    assert report.summaries[1].wins_missed == 1


def test_network_a_move_that_lets_a_network_through_is_a_blunder() -> None:
    moves = "43 41 34 37 01 23 73 63 64 10"
    assert wins_at_once("network", moves)  # White completes a network next move
    assert not wins_at_once("network", "43 41 34 37 01 23 73 63 64 44")
    report = analysed("network", moves)
    blunder = report.plies[9]
    assert blunder.mark == "blunder"
    assert blunder.best.move == "44"
    assert blunder.after.winner == 0


def test_lines_of_action_a_losing_capture_is_a_blunder() -> None:
    moves = "b6-d4 a5-c5 c6-f6 a4-c2 e1-d2 f3-d3 e6-e5 a3xd6"
    assert wins_at_once("loa", moves, size=6)  # Black connects at once
    report = analysed("loa", moves, size=6)
    blunder = report.plies[7]
    assert "x" in blunder.move
    assert blunder.mark == "blunder"
    assert blunder.best.move == "f4xd4"
    assert blunder.after.winner == 0


def test_crusher_a_losing_capture_is_a_blunder() -> None:
    report = analysed("crusher", "b2-b1 e1-c3 a2-b2 d2xb3 a1xc3", n=3)
    blunder = report.plies[4]
    assert "x" in blunder.move
    assert blunder.mark == "blunder"
    assert blunder.best.move == "b1xb3"
    assert blunder.after.winner == 1


@pytest.mark.parametrize(
    ("name", "options", "stronger"),
    [
        ("connect5", {"size": 15}, 8),
        ("network", {}, 4),
        ("loa", {"size": 6}, 4),
        ("crusher", {"n": 3}, 4),
    ],
)
def test_a_game_of_best_moves_is_not_marked(
    name: str, options: dict[str, object], stronger: int
) -> None:
    """Each move the best of a search given ``stronger`` times the analysis's work: none
    loses enough for a mark. (At the analysis's own work, a game played by its search does
    get marks: judging backwards, the analysis finds what the search missed.)"""
    game = load_game(name, **options)
    searcher = Searcher(game)
    state, moves = game.initial_state(), list[str]()
    while len(moves) < BEST_PLIES and game.outcome(state) is None:
        best = judge(searcher, state, budget(stronger * WORK)).best
        moves.append(game.format_move(best))
        state = game.play(state, best)
    report = analyse(load_game(name, **options), moves, budget(WORK))
    assert [(ply.move, ply.mark) for ply in report.plies if ply.mark] == []
    assert all(summary.blunders == summary.mistakes == 0 for summary in report.summaries)


BEST_PLIES = 10
"""Plies of each game of best moves."""
