"""Lines of Action evaluation and move ordering: sanity, symmetry and the quad arithmetic."""

from __future__ import annotations

import random

import pytest

from gamut_engine.games import loa_eval
from gamut_engine.games.loa import LinesOfActionGame, LoaState
from gamut_engine.games.loa_board import bits
from gamut_engine.games.loa_mobility import line_mobility


def position(game: LinesOfActionGame, black: str, white: str, side: int = 0) -> LoaState:
    """The state with Black and White on the named cells and ``side`` to move."""
    return game.make_state(game.board.mask_of(black), game.board.mask_of(white), side, 0)


def random_states(game: LinesOfActionGame, games: int) -> list[LoaState]:
    """Every running state of a few random games."""
    rng = random.Random(11)
    states = []
    for _ in range(games):
        state = game.initial_state()
        while game.outcome(state) is None:
            states.append(state)
            state = game.play(state, rng.choice(game.legal_moves(state)))
    return states


@pytest.mark.parametrize(
    ("cells", "solid", "euler"),
    [
        ("a1", 0, 1),
        ("a1 b2", 0, 1),
        ("a1 c1", 0, 2),
        ("a1 h8 d4", 0, 3),
        ("a1 b1 a2 b2", 1, 1),
        ("b2 c2 d2 b3 d3 b4 c4 d4", 4, 0),
        ("c3 c4 c5 d3 d5 e3 e4 e5 g7 h8", 4, 1),
    ],
)
def test_quads_count_solid_windows_and_groups_minus_holes(
    cells: str, solid: int, euler: int
) -> None:
    board = LinesOfActionGame().board
    assert loa_eval.quads(board, board.mask_of(cells)) == (solid, 4 * euler)


def test_the_symmetric_start_is_even_but_for_the_move() -> None:
    for size in (5, 6, 8):
        game = LinesOfActionGame(size=size)
        start = game.initial_state()
        white_to_move = game.make_state(start.black, start.white, 1, 0)
        assert game.evaluate(start) == game.evaluate(white_to_move) == loa_eval.TEMPO


def test_scores_are_for_the_side_to_move_and_bounded() -> None:
    game = LinesOfActionGame()
    for state in random_states(game, 3):
        other = game.make_state(state.black, state.white, 1 - state.side, state.ply)
        assert game.evaluate(state) + game.evaluate(other) == 2 * loa_eval.TEMPO
        assert abs(game.evaluate(state)) < 1_000_000


def test_gathered_pieces_score_higher_than_scattered_ones() -> None:
    game = LinesOfActionGame()
    black, white = "c3 d3 e3 c4 d4 e4 c5 d5 f7", "a1 h1 a8 h8 d1 a4 h5 e8 b6"
    assert game.evaluate(position(game, black, white, side=0)) > 500
    assert game.evaluate(position(game, black, white, side=1)) < -500


def test_a_central_group_beats_the_same_group_on_the_edge() -> None:
    game = LinesOfActionGame()
    white = "a1 h1 a8 h8"
    central = game.evaluate(position(game, "c3 d3 d4 e5 g6", white))
    edge = game.evaluate(position(game, "a3 a4 a5 b6 d7", white))
    assert central > edge


def test_more_mobility_scores_higher() -> None:
    game = LinesOfActionGame()
    board = game.board
    free = loa_eval.mobility(board, 0, board.mask_of("d4 f6"), board.mask_of("a1 h8"))
    hemmed = loa_eval.mobility(board, 0, board.mask_of("a1 h8"), board.mask_of("d4 f6 b2 g7"))
    assert free > hemmed


def test_spread_is_zero_for_a_tight_block() -> None:
    game = LinesOfActionGame()
    tables = loa_eval.tables_for(game.board)
    block = bits(game.board.mask_of("c3 d3 e3 c4 d4 e4 c5 d5 e5"))
    assert loa_eval.spread(tables, block) == 0
    line = bits(game.board.mask_of("a1 b1 c1 d1 e1"))
    assert loa_eval.spread(tables, line) == 6 - 4


def test_search_moves_keep_every_legal_move() -> None:
    for size in (5, 8):
        game = LinesOfActionGame(size=size)
        for state in random_states(game, 2)[::5]:
            ordered = game.search_moves(state)
            assert sorted(ordered) == sorted(game.legal_moves(state))


def test_search_moves_put_the_joining_move_first_then_captures() -> None:
    game = LinesOfActionGame(size=5)
    state = position(game, black="b1 d2", white="a5 e5")
    assert game.format_move(game.search_moves(state)[0]) == "b1-c2"
    start = LinesOfActionGame().initial_state()
    first = LinesOfActionGame().search_moves(start)[:4]
    assert all(move.capture for move in first)


@pytest.mark.parametrize("size", [5, 6, 8])
def test_line_by_line_mobility_and_remembered_terms_match_the_piece_by_piece_sum(
    size: int,
) -> None:
    game = LinesOfActionGame(size=size)
    board = game.board
    tables = loa_eval.tables_for(board)
    lines = line_mobility(board, tables.edge)
    for state in random_states(game, 4):
        black, white = state.black, state.white
        assert lines.both(black, white) == (
            loa_eval.mobility(board, tables.edge, black, white),
            loa_eval.mobility(board, tables.edge, white, black),
        )
        own, enemy = (white, black) if state.side else (black, white)
        reference = loa_eval.side_score(board, tables, own, enemy) - loa_eval.side_score(
            board, tables, enemy, own
        )
        assert game.evaluate(state) == reference + loa_eval.TEMPO


def test_line_mobility_is_the_same_once_its_memory_is_cleared() -> None:
    game = LinesOfActionGame()
    board = game.board
    lines = line_mobility(board, loa_eval.tables_for(board).edge)
    states = random_states(game, 1)
    remembered = [lines.both(state.black, state.white) for state in states]
    lines.forget()
    assert not any(memory for _, memory in lines.lines)
    assert [lines.both(state.black, state.white) for state in states] == remembered
    assert any(memory for _, memory in lines.lines)


def test_remembered_search_moves_are_fresh_lists_and_none_once_the_game_is_over() -> None:
    game = LinesOfActionGame()
    state = game.initial_state()
    first = game.search_moves(state)
    first.clear()
    assert sorted(game.search_moves(state)) == sorted(game.legal_moves(state))
    won = game.make_state(game.board.mask_of("c3 d4"), game.board.mask_of("a1 h8"), 1, 10)
    assert game.outcome(won) is not None
    assert game.search_moves(won) == []
