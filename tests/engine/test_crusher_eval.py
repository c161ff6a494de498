"""Crusher's evaluation and move order: clearly better positions score higher."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamut_engine.games.crusher import CrusherGame, CrusherState
from gamut_engine.games.crusher_board import Board, board_from_text
from gamut_engine.games.crusher_eval import WINNING_CRUSH
from gamut_engine.games.crusher_moves import CrusherMove

LEAP_LIVE = "WW- -W-- --B-- --B- B--"
"""Black to move can crush b2 by leaping d3 over c3."""
ONE_SIDED = "-WW -W-W --B-- --B- BB-"
"""Four pieces each; Black can crush b2, White has no crush."""


def game_3() -> CrusherGame:
    return CrusherGame(n=3)


def score(game: CrusherGame, board: str, side: str) -> int:
    return game.evaluate(game.state_from_board(board_from_text(board, game.n), side))


def flipped(game: CrusherGame, board: Board) -> Board:
    """The board turned upside down with the colours swapped."""
    rows: list[list[int | None]] = []
    start = 0
    for row in game.geometry.rows:
        rows.append(
            [None if owner is None else 1 - owner for owner in board[start : start + len(row)]]
        )
        start += len(row)
    return tuple(owner for row in reversed(rows) for owner in row)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8])
def test_the_start_is_even(n: int) -> None:
    game = CrusherGame(n=n)
    assert game.evaluate(game.initial_state()) == 0


def test_an_extra_piece_is_worth_more_than_any_positional_edge() -> None:
    game = game_3()
    level = score(game, "WWW -WW- ----- -BB- BBB", "w")
    ahead = score(game, "WWW -WW- ----- --B- BBB", "w")
    assert ahead >= level + 500


def test_a_crush_is_worth_most_to_the_side_that_can_play_it_now() -> None:
    game = game_3()
    black_to_move = score(game, ONE_SIDED, "b")
    white_to_move = score(game, ONE_SIDED, "w")
    # Black to move wins a piece; White to move can still save the piece that hangs.
    assert black_to_move > 500
    assert white_to_move < 0
    assert black_to_move > -white_to_move


def test_a_crush_that_wins_the_game_scores_near_a_win() -> None:
    game = game_3()
    board = "-WW -W-- --B-- --B- B--"
    # White has three pieces, so crushing one of them wins for Black.
    assert score(game, board, "b") > WINNING_CRUSH // 2
    assert abs(score(game, board, "b")) < 1_000_000


def test_a_hanging_piece_costs() -> None:
    game = game_3()
    hanging_board = "WWW -W-- ---W- -BB- BBB"
    state = game.state_from_board(hanging_board, "w")
    white, black, _ = game.generator.sides(state.board, 0)
    assert game.generator.crush_targets(black, white) == game.layout.bits[game.layout.index["c4"]]
    assert score(game, "WWW -W-W ----- -BB- BBB", "w") > score(game, hanging_board, "w")


def test_the_centre_is_worth_more_than_the_rim() -> None:
    game = game_3()
    centre = score(game, "WWW -W-- --W-- -BB- BBB", "w")
    rim = score(game, "WWW -W-- W---- -BB- BBB", "w")
    assert centre > rim


def test_search_moves_put_crushes_then_leaps_then_slides() -> None:
    game = game_3()
    state = game.state_from_board(board_from_text(LEAP_LIVE), "b")
    names = [game.format_move(m) for m in game.search_moves(state)]
    assert names[:2] == ["d3xb2", "c3-e3"]
    assert set(names) == {game.format_move(m) for m in game.legal_moves(state)}
    neighbours = game.layout.neighbours
    assert all(m.target in neighbours[m.origin] for m in game.search_moves(state)[2:])


def test_one_ply_greedy_play_takes_the_crush() -> None:
    game = game_3()
    state = game.state_from_board(board_from_text("WWW -W-- --B-- --B- BB-"), "b")
    best = max(game.legal_moves(state), key=lambda m: -_after(game, state, m))
    assert game.format_move(best) == "d3xb2"


def _after(game: CrusherGame, state: CrusherState, move: CrusherMove) -> int:
    return game.evaluate(game.play(state, move))


def random_states(game: CrusherGame, seed: int) -> list[CrusherState]:
    rng = random.Random(seed)
    states = [game.initial_state()]
    while game.outcome(states[-1]) is None:
        states.append(game.play(states[-1], rng.choice(game.legal_moves(states[-1]))))
    return states[:-1]


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_scores_are_bounded_and_colour_blind(n: int, seed: int) -> None:
    game = CrusherGame(n=n)
    for state in random_states(game, seed):
        value = game.evaluate(state)
        assert abs(value) < 1_000_000
        mirror = game.state_from_board(flipped(game, game.board(state)), 1 - state.side)
        assert game.evaluate(mirror) == value
