"""Crusher: the original rules and worked examples, notation, board texts and perft counts."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamut_engine import IllegalMoveError, InvalidMoveError, Outcome, load_game, perft
from gamut_engine.games.crusher import CrusherGame, CrusherState
from gamut_engine.games.crusher_board import (
    board_from_list,
    board_from_text,
    board_to_diagram,
    board_to_lisp,
    board_to_list,
    board_to_string,
    cell_count,
    row_lengths,
)
from gamut_engine.games.crusher_moves import CrusherMove

START_3 = """
        W   W   W
      -   W   W   -
    -   -   -   -   -
      -   B   B   -
        B   B   B
"""
LEAP_EXAMPLE = """
        W   W   -
      -   W   -   -
    -   -   B   -   -
      -   -   B   -
        -   -   -
"""
LEAP_LIVE = "WW- -W-- --B-- --B- B--"
"""The original leap example with a third Black piece on e1, so that the game is still on."""
SEED_CALL_BOARD = "(w w w nil w w nil nil nil nil nil nil nil b b nil b b b)"
SEED_FIRST_REPLY = "(nil w w nil w w nil nil nil w nil nil nil b b nil b b b)"


def game_3() -> CrusherGame:
    return CrusherGame(n=3)


def position(game: CrusherGame, diagram: str, side: str) -> CrusherState:
    return game.state_from_board(board_from_text(diagram, game.n), side)


def play_all(game: CrusherGame, state: CrusherState, moves: str) -> CrusherState:
    for text in moves.split():
        state = game.apply(state, game.parse_move(state, text))
    return state


def reason(game: CrusherGame, state: CrusherState, text: str) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        game.parse_move(state, text)
    assert caught.value.message
    return caught.value.reason


# --- the board -------------------------------------------------------------------------------


def test_board_shape_follows_the_seed() -> None:
    game = load_game("crusher", n=3)
    assert game.geometry.kind == "hex"
    assert [len(row) for row in game.geometry.rows] == [3, 4, 5, 4, 3]
    assert game.geometry.rows[0] == ("a1", "a2", "a3")
    assert game.geometry.rows[2][2] == "c3"
    assert len(game.geometry.cells) == cell_count(3) == 19
    assert row_lengths(4) == (4, 5, 6, 7, 6, 5, 4)


def test_start_position_is_the_seeds_diagram_and_list() -> None:
    game = game_3()
    start = game.initial_state()
    assert game.board(start) == board_from_text(START_3)
    assert board_to_lisp(game.board(start)) == SEED_CALL_BOARD
    assert board_to_string(game.board(start)) == "WWW-WW-------BB-BBB"
    assert game.to_move(start) == 0


@pytest.mark.parametrize("n", [3, 4, 5, 8])
def test_each_side_starts_with_2n_minus_1_pieces_on_its_two_home_rows(n: int) -> None:
    game = CrusherGame(n=n)
    board = game.board(game.initial_state())
    rows = game.geometry.rows
    cells = game.geometry.cells
    for side, (full, partial) in enumerate(((0, 1), (len(rows) - 1, len(rows) - 2))):
        owned = {cell for cell, owner in zip(cells, board, strict=True) if owner == side}
        assert len(owned) == 2 * n - 1
        assert owned == set(rows[full]) | set(rows[partial][1:-1])


def test_n2_start_gives_each_side_one_end_of_the_middle_row() -> None:
    game = CrusherGame(n=2)
    assert board_to_string(game.board(game.initial_state())) == "WWW-BBB"


def test_slide_example_black_centre_piece_reaches_its_six_neighbours() -> None:
    game = game_3()
    state = position(game, "WWW ---- --B-- ---- BBB", "b")
    centre = game.layout.index["c3"]
    slides = {game.format_move(m) for m in game.legal_moves(state) if m.origin == centre}
    assert slides == {"c3-b2", "c3-b3", "c3-c2", "c3-c4", "c3-d2", "c3-d3"}


def test_leap_example_black_has_two_leaps_one_crushing() -> None:
    # The original diagram leaves Black two pieces, which on a real board means White has
    # already won; the diagram only shows how leaps work, so ask the move generator.
    game = game_3()
    state = position(game, LEAP_EXAMPLE, "b")
    moves = game.generator.moves(state.board, 1, frozenset())
    leaps = {game.format_move(m) for m in moves if m.target not in _neighbours(game, m.origin)}
    assert leaps == {"d3xb2", "c3-e3"}
    slides = {game.format_move(m) for m in moves} - leaps
    assert slides == {f"c3-{to}" for to in ("b3", "c2", "c4", "d2")} | {
        f"d3-{to}" for to in ("c4", "d2", "d4", "e2", "e3")
    }
    by_name = {game.format_move(m): m for m in moves}
    crushed = game.play(state, by_name["d3xb2"])
    assert game.board(crushed) == board_from_text("WW- -B-- --B-- ---- ---")
    ran = game.play(state, by_name["c3-e3"])
    assert game.board(ran) == board_from_text("WW- -W-- ----- --B- --B")


def test_leap_example_in_a_running_game() -> None:
    game = game_3()
    state = position(game, LEAP_LIVE, "b")
    moves = game.legal_moves(state)
    two_away = [m for m in moves if m.target not in _neighbours(game, m.origin)]
    assert {game.format_move(m) for m in two_away} == {"d3xb2", "c3-e3"}


def _neighbours(game: CrusherGame, cell: int) -> set[int | None]:
    return set(game.layout.neighbours[cell])


def test_seed_first_move_example_is_legal_from_the_start() -> None:
    game = game_3()
    start = game.initial_state()
    reply = board_from_text(SEED_FIRST_REPLY)
    after = {game.board(game.play(start, m)): game.format_move(m) for m in game.legal_moves(start)}
    assert after[reply] == "a1-c3"


def test_a_piece_may_not_leap_over_more_than_one_piece() -> None:
    game = game_3()
    state = position(game, "--- -W-- --W-- --W- BBB", "w")
    assert reason(game, state, "b2-e3") == "not_adjacent"


# --- no repeated boards ----------------------------------------------------------------------


def test_a_move_may_not_recreate_an_earlier_board() -> None:
    game = game_3()
    state = play_all(game, game.initial_state(), "b2-c2 d3-c4 c2-b2")
    assert reason(game, state, "c4-d3") == "repeated_position"
    assert "c4-d3" not in {game.format_move(m) for m in game.legal_moves(state)}


def test_the_board_counts_whatever_side_is_to_move() -> None:
    game = game_3()
    state = play_all(game, game.initial_state(), "b2-c2 d3-c4 c2-b1 c4-d3")
    # b1-b2 would recreate the start board, this time with Black to move.
    assert reason(game, state, "b1-b2") == "repeated_position"


def test_a_crush_clears_the_boards_that_can_never_recur() -> None:
    game = game_3()
    state = position(game, LEAP_LIVE, "b")
    state = play_all(game, state, "d3-d2 a1-b1 d2-d3 a2-a3")
    assert len(state.history) == 4
    crushed = play_all(game, state, "d3xb2")
    assert crushed.history == frozenset()


def test_history_from_seed_call_matches_the_start() -> None:
    game = game_3()
    state = game.state_from_history([SEED_CALL_BOARD], "w")
    assert state == game.initial_state()


def test_history_from_seed_style_list_forbids_its_earlier_boards() -> None:
    game = game_3()
    history = [SEED_FIRST_REPLY, SEED_CALL_BOARD]
    state = game.state_from_history(history, "b")
    assert game.ply(state) == 1
    assert game.to_move(state) == 1
    back = play_all(game, state, "d3-c4 c3-a1")
    assert reason(game, back, "c4-d3") == "repeated_position"


def test_history_accepts_board_lists_in_python_form() -> None:
    game = game_3()
    boards = [board_to_list(board_from_text(SEED_CALL_BOARD))]
    assert game.state_from_history(boards, 0) == game.initial_state()


def test_a_side_whose_only_moves_repeat_has_no_move_and_loses() -> None:
    game = game_3()
    now = "WWW BBB- ----- ---- ---"
    assert [game.format_move(m) for m in game.legal_moves(game.state_from_history([now], "w"))] == [
        "a3-b4"
    ]
    state = game.state_from_history([now, "WW- BBBW ----- ---- ---"], "w")
    assert game.legal_moves(state) == []
    assert game.outcome(state) == Outcome(1, "no_moves")


# --- endings ---------------------------------------------------------------------------------


def test_crushing_n_pieces_wins() -> None:
    game = game_3()
    state = position(game, LEAP_LIVE, "b")
    assert game.outcome(state) is None
    after = game.play(state, game.parse_move(state, "d3xb2"))
    assert game.outcome(after) == Outcome(1, "crushed")
    assert game.legal_moves(after) == []


def test_a_side_with_n_pieces_left_plays_on() -> None:
    game = game_3()
    state = position(game, "WWW -B-- --B-- ---- B--", "w")
    assert game.outcome(state) is None


def test_the_side_to_move_with_no_legal_move_loses() -> None:
    game = game_3()
    state = position(game, "WWW BBBB ----- ---- ---", "w")
    assert game.legal_moves(state) == []
    assert game.outcome(state) == Outcome(1, "no_moves")


def test_a_move_that_leaves_the_opponent_without_moves_wins() -> None:
    game = game_3()
    state = position(game, "WWW BBB- ---B- ---- ---", "b")
    after = game.play(state, game.parse_move(state, "c4-b4"))
    assert game.outcome(after) == Outcome(1, "no_moves")


def test_move_cap_draws_and_a_move_after_the_end_is_refused() -> None:
    game = CrusherGame(n=3, max_plies=10)
    state = play_all(game, game.initial_state(), "b2-c2 d3-c4")
    for _ in range(8):
        assert game.outcome(state) is None
        state = game.play(state, game.legal_moves(state)[0])
    assert game.outcome(state) == Outcome(None, "move_cap")
    assert reason(game, state, "c2-c3") == "game_over"


# --- notation and reasons --------------------------------------------------------------------


def test_moves_read_either_separator_and_write_the_canonical_one() -> None:
    game = game_3()
    state = position(game, LEAP_LIVE, "b")
    crush = CrusherMove(game.layout.index["d3"], game.layout.index["b2"], True)
    assert game.parse_move(state, "d3xb2") == crush
    assert game.parse_move(state, "D3-B2") == crush
    assert game.parse_move(state, " d3 X b2 ") == crush
    assert game.format_move(crush) == "d3xb2"
    slide = game.parse_move(state, "c3xc2")
    assert game.format_move(slide) == "c3-c2"
    assert game.move_cells(crush) == ("d3", "b2")


@pytest.mark.parametrize("text", ["", "a1", "a1b2", "a1--b2", "11-22", "a1-b", "pass", "a1=b2"])
def test_text_that_is_no_move_is_invalid(text: str) -> None:
    game = game_3()
    with pytest.raises(InvalidMoveError, match="expected a move such as"):
        game.parse_move(game.initial_state(), text)


@pytest.mark.parametrize(
    ("board", "side", "move", "code"),
    [
        ("WWW -WW- ----- -BB- BBB", "w", "a4-b4", "off_board"),
        ("WWW -WW- ----- -BB- BBB", "w", "f1-e1", "off_board"),
        ("WWW -WW- ----- -BB- BBB", "w", "a0-b1", "off_board"),
        ("WWW -WW- ----- -BB- BBB", "w", "c3-c4", "no_piece"),
        ("WWW -WW- ----- -BB- BBB", "w", "d2-c2", "not_your_piece"),
        ("WWW -WW- ----- -BB- BBB", "w", "b2-d2", "not_adjacent"),
        ("WWW -WW- ----- -BB- BBB", "w", "b2-b2", "not_adjacent"),
        ("WWW -WW- ----- -BB- BBB", "w", "a1-a2", "occupied"),
        ("WWW -WW- --B-- -BB- BBB", "w", "b2-c3", "occupied"),
        ("WWW -WW- ----- -BB- BBB", "w", "a1-a3", "occupied"),
        ("WWW -WW- ----- -BB- BBB", "w", "a1-c1", "no_piece_to_leap"),
        ("WWW -WB- ----- -BB- BBB", "w", "a3-c3", "no_piece_to_leap"),
        ("WWW -WW- ----- -BB- BBB", "b", "e1-c1", "no_piece_to_leap"),
    ],
)
def test_each_broken_rule_has_its_reason(board: str, side: str, move: str, code: str) -> None:
    game = game_3()
    assert reason(game, position(game, board, side), move) == code


def test_a_crush_flag_must_match_the_landing_cell() -> None:
    game = game_3()
    state = position(game, LEAP_LIVE, "b")
    d3, b2, c3, e3, c2 = (game.layout.index[name] for name in ("d3", "b2", "c3", "e3", "c2"))
    cases = [
        (CrusherMove(d3, b2, False), "crush_not_marked"),
        (CrusherMove(c3, e3, True), "nothing_to_crush"),
        (CrusherMove(c3, c2, True), "nothing_to_crush"),
        (CrusherMove(c3, 99, False), "off_board"),
    ]
    for move, code in cases:
        with pytest.raises(IllegalMoveError) as caught:
            game.check_move(state, move)
        assert caught.value.reason == code


# --- texts -----------------------------------------------------------------------------------


def test_board_texts_round_trip_in_every_form() -> None:
    board = board_from_text(SEED_FIRST_REPLY)
    assert board_from_text(board_to_lisp(board)) == board
    assert board_from_text(str(board_to_list(board))) == board
    assert board_from_text(board_to_string(board)) == board
    assert board_from_text(board_to_diagram(board)) == board
    assert board_from_list(board_to_list(board)) == board
    assert board_to_list(board)[:4] == [None, "w", "w", None]


def test_seed_diagram_is_drawn_as_the_seed_draws_it() -> None:
    lines = board_to_diagram(board_from_text(START_3)).splitlines()
    assert lines[0] == "    W   W   W"
    assert lines[2] == "-   -   -   -   -"


@pytest.mark.parametrize(
    "text",
    ["", "(w w w)", "WWW-WW-------BB-BBBB", "(w x nil)", "(w w w nil w w nil nil)"],
)
def test_bad_board_texts_are_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(ValueError, match="board"):
        board_from_text(text)


def test_board_text_must_fit_the_given_size() -> None:
    with pytest.raises(ValueError, match="37 cells for n = 4"):
        board_from_text(SEED_CALL_BOARD, 4)


def test_encode_and_decode_keep_board_side_and_ply() -> None:
    game = game_3()
    state = play_all(game, game.initial_state(), "a1-c3 d3-c4")
    assert game.encode(state) == "-WW-WW---WB--B--BBB w 2"
    copy = game.decode(game.encode(state))
    assert (copy.board, copy.side, copy.ply, copy.key) == (
        state.board,
        state.side,
        state.ply,
        state.key,
    )
    assert copy.history == frozenset()
    assert game.decode("WWW-WW-------BB-BBB w") == game.initial_state()


@pytest.mark.parametrize(
    "text", ["WWW-WW-------BB-BBB", "WWW-WW-------BB-BBB x 0", "WWW-WW-------BB-BBB w one", "WWW w"]
)
def test_decode_refuses_bad_text(text: str) -> None:
    with pytest.raises(ValueError, match=r"expected|ply|board"):
        game_3().decode(text)


def test_render_shows_rows_and_cell_names() -> None:
    game = game_3()
    text = game.render(game.initial_state())
    assert "a1-a3" in text
    assert "c1-c5" in text
    assert "White to move" in text


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"n": 1}, "cells on each side"),
        ({"n": 14}, "cells on each side"),
        ({"n": "3"}, "cells on each side"),
        ({"max_plies": 0}, "max_plies"),
        ({"size": 3}, "bad options"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        load_game("crusher", **options)


def test_options_recreate_the_game() -> None:
    game = load_game("crusher", n=5, max_plies=50)
    assert dict(game.options) == {"n": 5, "max_plies": 50}
    assert game.title == "Crusher n=5"


# --- perft -----------------------------------------------------------------------------------

PERFT = {
    2: (3, 2, 6),
    3: (14, 184, 2_618),
    4: (18, 324, 6_984),
    5: (22, 484, 12_760),
}


@pytest.mark.parametrize(
    ("n", "depth"),
    [(n, depth) for n in PERFT for depth in (1, 2, 3)],
)
def test_perft_from_the_start(n: int, depth: int) -> None:
    game = CrusherGame(n=n)
    assert perft(game, game.initial_state(), depth) == PERFT[n][depth - 1]


def test_perft_depth_four_n3() -> None:
    game = game_3()
    assert perft(game, game.initial_state(), 4) == 36_230


# --- properties ------------------------------------------------------------------------------


def random_states(game: CrusherGame, seed: int, plies: int) -> list[CrusherState]:
    rng = random.Random(seed)
    states = [game.initial_state()]
    while len(states) <= plies and game.outcome(states[-1]) is None:
        states.append(game.play(states[-1], rng.choice(game.legal_moves(states[-1]))))
    return states


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 5), seed=st.integers(0, 10_000), plies=st.integers(0, 40))
def test_generated_moves_are_exactly_the_moves_the_referee_accepts(
    n: int, seed: int, plies: int
) -> None:
    game = CrusherGame(n=n)
    state = random_states(game, seed, plies)[-1]
    if game.outcome(state) is not None:
        return
    cells = range(len(game.geometry.cells))
    accepted = set()
    for origin, target, crush in itertools.product(cells, cells, (False, True)):
        move = CrusherMove(origin, target, crush)
        try:
            game.check_move(state, move)
        except IllegalMoveError:
            continue
        accepted.add(move)
    assert accepted == set(game.legal_moves(state))


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 8), seed=st.integers(0, 10_000))
def test_incremental_keys_match_keys_from_scratch(n: int, seed: int) -> None:
    game = CrusherGame(n=n)
    for state in random_states(game, seed, 60):
        assert state.key == game.layout.key_of(state.board, state.side)
        assert state.board not in state.history


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_no_board_ever_recurs_in_a_game(n: int, seed: int) -> None:
    game = CrusherGame(n=n)
    boards = [state.board for state in random_states(game, seed, 200)]
    assert len(boards) == len(set(boards))
