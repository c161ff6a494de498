"""Lines of Action: the original rules one by one, the endings, notation and perft counts."""

from __future__ import annotations

import pytest

from gamut_engine import IllegalMoveError, InvalidMoveError, Outcome, load_game, perft
from gamut_engine.games.loa import PASS, LinesOfActionGame, LoaMove, LoaState
from tests.engine import loa_reference

STUCK = "www../.ww../.b.b./..www/...w. b 0"
"""A 5×5 position in which Black, to move, has no piece move at all."""


def position(game: LinesOfActionGame, black: str, white: str, side: int = 0) -> LoaState:
    """The state with Black and White on the named cells and ``side`` to move."""
    return game.make_state(game.board.mask_of(black), game.board.mask_of(white), side, 0)


def moves_from(game: LinesOfActionGame, state: LoaState, cell: str) -> set[str]:
    """The legal moves of the piece on ``cell``, in notation."""
    moves = game.legal_moves(state)
    return {game.format_move(m) for m in moves if game.move_cells(m)[:1] == (cell,)}


def cells(game: LinesOfActionGame, pieces: int) -> str:
    """The cell names of ``pieces``, sorted and space-separated."""
    return " ".join(sorted(name for sq, name in game.board.names.items() if pieces >> sq & 1))


def play_all(game: LinesOfActionGame, state: LoaState, *texts: str) -> LoaState:
    """The state after the moves ``texts``, each parsed and checked."""
    for text in texts:
        state = game.apply(state, game.parse_move(state, text))
    return state


def reason(game: LinesOfActionGame, state: LoaState, text: str) -> IllegalMoveError:
    """The refusal of the move ``text`` in ``state``."""
    with pytest.raises(IllegalMoveError) as caught:
        game.parse_move(state, text)
    assert caught.value.message
    return caught.value


# --- The start -----------------------------------------------------------------------------

START = {
    5: ("b1 b5 c1 c5 d1 d5", "a2 a3 a4 e2 e3 e4"),
    6: ("b1 b6 c1 c6 d1 d6 e1 e6", "a2 a3 a4 a5 f2 f3 f4 f5"),
    8: (
        "b1 b8 c1 c8 d1 d8 e1 e8 f1 f8 g1 g8",
        "a2 a3 a4 a5 a6 a7 h2 h3 h4 h5 h6 h7",
    ),
}


@pytest.mark.parametrize("size", [5, 6, 8])
def test_start_position_has_black_on_top_and_bottom_and_white_on_the_sides(size: int) -> None:
    game = LinesOfActionGame(size=size)
    state = game.initial_state()
    assert (cells(game, state.black), cells(game, state.white)) == START[size]
    assert game.to_move(state) == 0
    assert game.sides == ("Black", "White")
    assert game.title == f"Lines of Action {size}×{size}"


def test_players_alternate_starting_with_black() -> None:
    game = LinesOfActionGame(size=5)
    state = play_all(game, game.initial_state(), "b1-b3")
    assert game.to_move(state) == 1
    assert reason(game, state, "b3-b5").reason == "not_your_piece"
    assert game.to_move(play_all(game, state, "a2-c2")) == 0


# --- Moving --------------------------------------------------------------------------------


def test_distance_counts_pieces_of_both_colours_on_the_whole_line() -> None:
    game = LinesOfActionGame()
    state = position(game, black="d4 h4", white="a4 a8")
    # Rank 4 holds three pieces, one of them behind d4 and one White: d4 moves three.
    assert moves_from(game, state, "d4") == {
        "d4-g4",
        "d4xa4",
        "d4-d5",
        "d4-d3",
        "d4-e5",
        "d4-c3",
        "d4-c5",
        "d4-e3",
    }
    refusal = reason(game, state, "d4-f4")
    assert refusal.reason == "wrong_distance"
    assert "here 3" in str(refusal)


def test_standard_examples_from_the_start() -> None:
    game = LinesOfActionGame()
    state = game.initial_state()
    assert moves_from(game, state, "b1") == {"b1-b3", "b1-d3", "b1-h1"}
    assert "f8xh6" in moves_from(game, state, "f8")
    assert len(game.legal_moves(state)) == 36


def test_a_piece_jumps_its_own_pieces_but_not_enemy_pieces() -> None:
    game = LinesOfActionGame()
    black_to_move = position(game, black="d5 f5", white="a5 h5")
    assert "f5-b5" in moves_from(game, black_to_move, "f5")
    white_to_move = position(game, black="d5 f5", white="a5 h5", side=1)
    refusal = reason(game, white_to_move, "a5-e5")
    assert refusal.reason == "blocked_by_enemy"
    assert "pass over d5" in refusal.message
    assert reason(game, white_to_move, "h5xd5").reason == "blocked_by_enemy"
    assert moves_from(game, white_to_move, "a5") | moves_from(game, white_to_move, "h5") <= {
        "a5-a6",
        "a5-a4",
        "a5-b6",
        "a5-b4",
        "h5-h6",
        "h5-h4",
        "h5-g6",
        "h5-g4",
    }


def test_a_piece_captures_by_landing_on_an_enemy_piece() -> None:
    game = LinesOfActionGame()
    start = game.initial_state()
    after = play_all(game, start, "f8-h6")
    assert game.format_move(game.parse_move(start, "f8-h6")) == "f8xh6"
    assert cells(game, after.black).split().count("h6") == 1
    assert "h6" not in cells(game, after.white).split()
    assert after.white.bit_count() == 11
    assert after.black.bit_count() == 12


def test_a_piece_cannot_land_on_its_own_piece() -> None:
    game = LinesOfActionGame()
    state = position(game, black="c1 e1", white="a8 h8")
    assert reason(game, state, "c1-e1").reason == "own_piece"


# --- Winning -------------------------------------------------------------------------------


def test_connecting_all_pieces_wins_and_names_them() -> None:
    game = LinesOfActionGame(size=5)
    state = play_all(game, position(game, black="b1 d2", white="a5 e5"), "b1-c2")
    assert game.outcome(state) == Outcome(0, "connected", ("c2", "d2"))
    assert game.legal_moves(state) == []
    assert reason(game, state, "a5-b5").reason == "game_over"


def test_a_capture_that_connects_both_sides_wins_for_the_mover() -> None:
    game = LinesOfActionGame(size=5)
    state = play_all(game, position(game, black="a1 b4", white="a3 d1 e2"), "a1xa3")
    assert game.outcome(state) == Outcome(0, "connected", ("a3", "b4"))


def test_a_capture_that_connects_only_the_opponent_wins_for_the_opponent() -> None:
    game = LinesOfActionGame(size=5)
    state = play_all(game, position(game, black="a1 c5", white="a3 d1 e2"), "a1xa3")
    assert game.outcome(state) == Outcome(1, "connected", ("d1", "e2"))


def test_a_single_remaining_piece_is_connected() -> None:
    game = LinesOfActionGame()
    state = play_all(game, position(game, black="d5 f5", white="a5 h5"), "d5xh5")
    assert game.outcome(state) == Outcome(1, "connected", ("a5",))


def test_a_win_on_the_last_allowed_ply_is_still_a_win() -> None:
    game = LinesOfActionGame(size=5, max_plies=10)
    board = game.board
    ninth = game.make_state(board.mask_of("b1 d2"), board.mask_of("a5 e5"), 0, 9)
    state = play_all(game, ninth, "b1-c2")
    assert game.outcome(state) == Outcome(0, "connected", ("c2", "d2"))


# --- Passing, repetition and the move cap ---------------------------------------------------


def test_a_side_without_a_piece_move_must_pass() -> None:
    game = LinesOfActionGame(size=5)
    state = game.decode(STUCK)
    assert game.legal_moves(state) == [PASS]
    after = game.apply(state, game.parse_move(state, "pass"))
    assert (after.black, after.white, after.side, after.ply) == (state.black, state.white, 1, 1)
    assert game.outcome(after) is None
    assert game.format_move(PASS) == "pass"
    assert game.move_cells(PASS) == ()


def test_a_side_with_a_piece_move_cannot_pass() -> None:
    game = LinesOfActionGame(size=5)
    assert reason(game, game.initial_state(), "pass").reason == "cannot_pass"


def test_the_third_occurrence_of_a_position_is_a_draw() -> None:
    game = LinesOfActionGame(size=5)
    state = position(game, black="a1 e1", white="a5 e5")
    cycle = ("a1-c1", "a5-c5", "c1-a1", "c5-a5")
    state = play_all(game, state, *cycle, *cycle[:3])
    assert game.outcome(state) is None
    state = play_all(game, state, cycle[3])
    assert game.outcome(state) == Outcome(None, "repetition")
    assert game.legal_moves(state) == []


def test_passes_count_towards_repetition() -> None:
    game = LinesOfActionGame(size=5)
    state = game.decode(STUCK)
    for _ in range(3):
        state = game.play(state, PASS)
        assert game.outcome(state) is None
    assert game.outcome(game.play(state, PASS)) == Outcome(None, "repetition")


def test_a_capture_clears_the_repetition_history() -> None:
    game = LinesOfActionGame()
    state = play_all(game, game.initial_state(), "b1-b3", "a2-c2")
    assert len(state.history) == 2
    assert play_all(game, state, "f8xh6").history == ()


def test_the_game_is_drawn_when_the_move_cap_is_reached() -> None:
    game = LinesOfActionGame(max_plies=10)
    state = play_all(game, game.initial_state(), "b1-b3", "a2-c2")
    for _ in range(8):
        assert game.outcome(state) is None
        state = game.play(state, game.legal_moves(state)[0])
    assert game.outcome(state) == Outcome(None, "move_cap")


# --- Notation and refusals ------------------------------------------------------------------


@pytest.mark.parametrize("text", ["b1-b3", "b1xb3", "B1B3", " b1 b3 ", "b1:b3", "b1 - b3"])
def test_input_accepts_either_separator_or_none(text: str) -> None:
    game = LinesOfActionGame()
    move = game.parse_move(game.initial_state(), text)
    assert move == LoaMove(game.board.index["b1"], game.board.index["b3"], False)
    assert game.format_move(move) == "b1-b3"


@pytest.mark.parametrize("text", ["", "b1", "b1-b3-b5", "hello", "11-22", "b1-"])
def test_text_that_is_no_move_is_invalid(text: str) -> None:
    game = LinesOfActionGame()
    with pytest.raises(InvalidMoveError, match="Expected a move such as b1-b3"):
        game.parse_move(game.initial_state(), text)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("d4-d6", "no_piece"),
        ("a2-c2", "not_your_piece"),
        ("b1-b2", "wrong_distance"),
        ("b1-c3", "not_a_line"),
        ("b1-i1", "off_board"),
        ("b1-b9", "off_board"),
        ("b0-b2", "off_board"),
        ("pass", "cannot_pass"),
    ],
)
def test_refusals_at_the_start_name_the_rule(text: str, code: str) -> None:
    game = LinesOfActionGame()
    assert reason(game, game.initial_state(), text).reason == code


def test_a_move_object_must_flag_captures_truthfully() -> None:
    game = LinesOfActionGame()
    state = game.initial_state()
    index = game.board.index
    for origin, target, capture in (("b1", "b3", True), ("f8", "h6", False)):
        with pytest.raises(IllegalMoveError) as caught:
            game.check_move(state, LoaMove(index[origin], index[target], capture))
        assert caught.value.reason == "capture_mismatch"


def test_a_move_object_off_the_board_is_refused() -> None:
    game = LinesOfActionGame(size=5)
    with pytest.raises(IllegalMoveError) as caught:
        game.check_move(game.initial_state(), LoaMove(1, 5, False))
    assert caught.value.reason == "off_board"


# --- Position text, drawing and options ------------------------------------------------------


def test_encode_writes_ranks_from_the_top_then_side_and_ply() -> None:
    game = LinesOfActionGame(size=5)
    start = game.initial_state()
    assert game.encode(start) == ".bbb./w...w/w...w/w...w/.bbb. b 0"
    assert game.decode(".bbb./w...w/w...w/w...w/.bbb. b") == start
    after = play_all(game, start, "b1-b3")
    assert game.encode(after) == ".bbb./w...w/wb..w/w...w/..bb. w 1"


def test_decode_works_out_a_finished_position() -> None:
    game = LinesOfActionGame(size=5)
    state = game.decode("...../...../..bb./w...w/..... w 9")
    assert game.outcome(state) == Outcome(0, "connected", ("c3", "d3"))


@pytest.mark.parametrize(
    "text",
    [
        "",
        ".bbb./w...w/w...w/w...w b 0",
        ".bbb./w...w/w...w/w...w/.bbbbb b 0",
        ".bbb./w...w/w.x.w/w...w/.bbb. b 0",
        ".bbb./...../...../...../.bbb. b 0",
        ".bbb./w...w/w...w/w...w/.bbb. black 0",
        ".bbb./w...w/w...w/w...w/.bbb. b -1",
        ".bbb./w...w/w...w/w...w/.bbb. b 0 extra",
    ],
)
def test_decode_refuses_bad_text(text: str) -> None:
    with pytest.raises(ValueError, match=r"."):
        LinesOfActionGame(size=5).decode(text)


def test_render_and_occupancy_follow_the_board() -> None:
    game = LinesOfActionGame(size=5)
    state = game.initial_state()
    assert game.render(state).splitlines() == [
        "5 . B B B .",
        "4 W . . . W",
        "3 W . . . W",
        "2 W . . . W",
        "1 . B B B .",
        "  a b c d e",
        "Black to move",
    ]
    assert game.geometry.rows[0] == ("a5", "b5", "c5", "d5", "e5")
    assert game.occupancy(state)[:10] == (None, 0, 0, 0, None, 1, None, None, None, 1)


@pytest.mark.parametrize("options", [{"size": 7}, {"size": "8"}, {"size": True}, {"max_plies": 0}])
def test_bad_options_are_refused_with_a_sentence(options: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"\w+ \w+"):
        load_game("loa", **options)


def test_options_recreate_the_game() -> None:
    game = load_game("loa", size=6, max_plies=50)
    assert game.options == {"size": 6, "max_plies": 50}
    assert isinstance(game, LinesOfActionGame)


# --- Perft ---------------------------------------------------------------------------------

REFERENCE_PERFT = [
    (8, 1, 36),
    (8, 2, 1_244),
    (8, 3, 44_952),
    (6, 1, 24),
    (6, 2, 524),
    (6, 3, 11_440),
    (5, 1, 18),
    (5, 2, 280),
    (5, 3, 4_164),
]
"""Shared reference counts, reproduced by two independent implementations."""

OWN_PERFT = [
    (5, 4, 56_108),
    (5, 5, 743_264),
    (6, 4, 234_560),
    (8, 4, 1_563_208),
]
"""Deeper counts from Gamut, confirmed by the plain model in ``loa_reference``."""


@pytest.mark.parametrize(("size", "depth", "leaves"), REFERENCE_PERFT)
def test_perft_matches_the_reference(size: int, depth: int, leaves: int) -> None:
    game = LinesOfActionGame(size=size)
    assert perft(game, game.initial_state(), depth) == leaves


@pytest.mark.slow
@pytest.mark.parametrize(("size", "depth", "leaves"), OWN_PERFT)
def test_perft_deeper_regression(size: int, depth: int, leaves: int) -> None:
    game = LinesOfActionGame(size=size)
    assert perft(game, game.initial_state(), depth) == leaves


def test_perft_agrees_with_the_plain_model() -> None:
    assert loa_reference.perft(loa_reference.start(5), 5, 0, 4) == 56_108
