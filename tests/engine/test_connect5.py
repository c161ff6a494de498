"""Connect Five rules: the original example, fives on every line and edge, draws, errors, perft."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamut_engine import IllegalMoveError, InvalidMoveError, Outcome, load_game, perft
from gamut_engine.games.connect5 import ConnectFiveGame, load_board
from gamut_engine.games.connect5_board import Connect5State

SEED_BOARD = """(list (list '- '- '- '- '-)
      (list 'X 'X 'X 'X '-)
      (list '- 'O 'O 'O 'O)
      (list '- '- '- '- '-)
      (list '- '- '- '- '-))"""
"""The example board of the course project Connect Five comes from; X is to move."""

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
"""(row step, column step) of a row, a column, a diagonal and an anti-diagonal."""

DRAWN_FILL = ("XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX")
"""A full 5×5 board, 13 X and 12 O stones, without five in a row anywhere."""


def cell(game: ConnectFiveGame, row: int, column: int) -> int:
    """The cell index of (row from the top, column from the left)."""
    return row * game.size + column


def position(game: ConnectFiveGame, x_cells: list[int], o_cells: list[int]) -> Connect5State:
    """The position with those stones, the side with fewer stones (X if equal) to move."""
    bits = game.board.bits
    return game.state_from_stones(
        sum(bits[c] for c in x_cells), sum(bits[c] for c in o_cells), None
    )


def runs(game: ConnectFiveGame, length: int) -> list[list[int]]:
    """Every run of ``length`` cells in a straight line on the board, as cell indices."""
    n = game.size
    found = []
    for dr, dc in DIRECTIONS:
        for r in range(n):
            for c in range(n):
                cells = [(r + k * dr, c + k * dc) for k in range(length)]
                if all(0 <= rr < n and 0 <= cc < n for rr, cc in cells):
                    found.append([rr * n + cc for rr, cc in cells])
    return found


def far_cells(game: ConnectFiveGame, run: list[int], count: int) -> list[int]:
    """``count`` cells off ``run`` with even row and column: no two of them touch."""
    n = game.size
    spaced = [i for i in range(n * n) if i not in run and (i // n) % 2 == 0 and (i % n) % 2 == 0]
    return spaced[:count]


# The original example


def test_seed_board_parses_with_x_to_move() -> None:
    game, state = load_board(SEED_BOARD)
    assert game.size == 5
    assert game.to_move(state) == 0
    assert game.ply(state) == 8
    assert game.encode(state) == "-----/XXXX-/-OOOO/-----/----- X"


def test_seed_answer_column_4_row_1_wins_for_x() -> None:
    game, state = load_board(SEED_BOARD)
    move = game.parse_move(state, "(4 1)")
    assert game.format_seed_move(move) == "(4 1)"
    assert game.format_move(move) == "e4"
    after = game.apply(state, move)
    assert game.outcome(after) == Outcome(0, "five", ("a4", "b4", "c4", "d4", "e4"))
    assert game.legal_moves(after) == []


@pytest.mark.parametrize("text", ["(4 1)", "4 1", "4,1", " ( 4 , 1 ) ", "e4", "E4", " e 4 "])
def test_every_accepted_notation_names_the_same_cell(text: str) -> None:
    game, state = load_board(SEED_BOARD)
    assert game.parse_move(state, text) == cell(game, 1, 4)


def test_plain_text_board_reads_like_the_scheme_one() -> None:
    game, scheme = load_board(SEED_BOARD)
    _, plain = load_board("\n - - - - -\n x x x x -\n\n - o O o O \n-----\n. . _ - -\n")
    assert plain == scheme
    assert game.board_state(SEED_BOARD.lower()) == scheme


def test_a_board_of_another_size_is_refused() -> None:
    game = ConnectFiveGame(size=7)
    with pytest.raises(ValueError, match="a 7×7 board needs 7 rows of 7 cells"):
        game.board_state(SEED_BOARD)


def test_side_with_fewer_stones_is_to_move() -> None:
    game, state = load_board("X----\n-----\n-----\n-----\n-----")
    assert game.to_move(state) == 1
    _, state = load_board("O----\n-----\n-----\n-----\n-----")
    assert game.to_move(state) == 0
    assert game.ply(state) == 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("XXOO-\n-----\n-----\n-----", "must be square, not 4 rows of \\[5\\] cells"),
        ("XXOO-\n-----\n-----\n-----\n----", "must be square, not 5 rows of \\[4, 5\\]"),
        ("XXOOZ\n-----\n-----\n-----\n-----", "'Z' is not a board symbol"),
        ("XXX--\n-----\n-----\n-----\n-----", "one fewer"),
        ("XXXXX\nOOOO-\n-----\n-----\nO----", "X is to move but already has five"),
        ("----\n----\n----\n----", "board size must be from 5 to 19"),
    ],
)
def test_bad_board_texts_are_refused_with_a_sentence(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        load_board(text)


# Five in a row, six in a row, and what is not five


@pytest.mark.parametrize("size", [5, 7])
def test_five_wins_along_every_line_and_edge_whichever_stone_comes_last(size: int) -> None:
    game = ConnectFiveGame(size=size)
    for run in runs(game, 5):
        others = far_cells(game, run, 4)
        for last in run:
            state = position(game, [c for c in run if c != last], others)
            assert game.outcome(state) is None
            after = game.apply(state, last)
            names = tuple(game.format_move(c) for c in run)
            assert game.outcome(after) == Outcome(0, "five", names)


def test_five_wins_for_o_too() -> None:
    game = ConnectFiveGame(size=7)
    run = [cell(game, r, 6) for r in range(1, 6)]
    state = position(game, [0, 2, 4, 16, 18], run[:4])
    assert game.to_move(state) == 1
    after = game.play(state, run[4])
    assert game.outcome(after) == Outcome(1, "five", tuple(game.format_move(c) for c in run))


@pytest.mark.parametrize("size", [7, 15])
def test_six_in_a_row_also_wins_along_every_line(size: int) -> None:
    game = ConnectFiveGame(size=size)
    for run in runs(game, 6)[:: 1 if size == 7 else 7]:
        for gap in (2, 3):
            x_cells = [c for i, c in enumerate(run) if i != gap]
            others = far_cells(game, run, 5)
            state = position(game, x_cells, others)
            after = game.play(state, run[gap])
            outcome = game.outcome(after)
            assert outcome == Outcome(0, "five", tuple(game.format_move(c) for c in run))


def test_four_in_a_row_and_broken_fives_do_not_win() -> None:
    game = ConnectFiveGame(size=9)
    row = [cell(game, 4, c) for c in range(9)]
    state = position(game, [row[0], row[1], row[3], row[4]], [0, 2, 6, 8])
    assert game.outcome(game.play(state, row[5])) is None
    assert game.outcome(game.play(state, row[2])) is not None
    end_of_row = [cell(game, 3, 6), cell(game, 3, 7), cell(game, 3, 8), cell(game, 4, 0)]
    wrapped = position(game, end_of_row, far_cells(game, [*end_of_row, cell(game, 4, 1)], 4))
    assert game.outcome(game.play(wrapped, cell(game, 4, 1))) is None, "rows must not wrap"


def test_mixed_colours_in_a_row_do_not_win() -> None:
    game, state = load_board("XXXOX\n-----\nO-O--\n-----\n-----")
    assert game.outcome(state) is None


# Draws and the ply cap


def test_full_board_without_five_is_a_draw() -> None:
    game = ConnectFiveGame(size=5)
    text = "".join(DRAWN_FILL)
    x_cells = [i for i, s in enumerate(text) if s == "X"]
    o_cells = [i for i, s in enumerate(text) if s == "O"]
    state = game.initial_state()
    for ply in range(25):
        assert game.outcome(state) is None
        move = x_cells[ply // 2] if ply % 2 == 0 else o_cells[ply // 2]
        state = game.apply(state, move)
    assert game.outcome(state) == Outcome(None, "board_full")
    assert game.legal_moves(state) == []
    assert game.encode(state) == "/".join(DRAWN_FILL) + " O"


def test_ply_cap_draws_but_a_win_on_the_last_ply_counts() -> None:
    game = ConnectFiveGame(size=7, max_plies=10)
    # X scatters five stones while O lays four along the bottom row; the tenth ply is O's.
    scattered = [cell(game, r, c) for r, c in ((0, 0), (0, 2), (2, 0), (2, 2), (4, 4))]
    bottom = [cell(game, 6, c) for c in range(4)]
    moves = [*(m for pair in zip(scattered, bottom, strict=False) for m in pair), scattered[4]]
    state = game.initial_state()
    for move in moves:
        state = game.apply(state, move)
    assert game.outcome(game.play(state, cell(game, 6, 4))) == Outcome(
        1, "five", ("a1", "b1", "c1", "d1", "e1")
    )
    capped = game.play(state, cell(game, 3, 3))
    assert game.outcome(capped) == Outcome(None, "move_cap")
    assert game.legal_moves(capped) == []


# Illegal moves and bad notation


def test_occupied_cell_is_refused() -> None:
    game, state = load_board(SEED_BOARD)
    with pytest.raises(IllegalMoveError, match="already holds a stone") as caught:
        game.parse_move(state, "a4")
    assert caught.value.reason == "occupied"


@pytest.mark.parametrize("text", ["f1", "a6", "a0", "z9", "(5 0)", "(0 5)", "-1 2"])
def test_cells_off_the_board_are_refused(text: str) -> None:
    game, state = load_board(SEED_BOARD)
    with pytest.raises(IllegalMoveError, match="not on the board") as caught:
        game.parse_move(state, text)
    assert caught.value.reason == "off_board"


@pytest.mark.parametrize("move", [-1, 25, 100])
def test_check_move_refuses_cell_indices_off_the_board(move: int) -> None:
    game = ConnectFiveGame(size=5)
    with pytest.raises(IllegalMoveError) as caught:
        game.check_move(game.initial_state(), move)
    assert caught.value.reason == "off_board"


def test_no_move_after_the_game_is_over() -> None:
    game, state = load_board(SEED_BOARD)
    over = game.play(state, cell(game, 1, 4))
    with pytest.raises(IllegalMoveError, match="game is over") as caught:
        game.parse_move(over, "a1")
    assert caught.value.reason == "game_over"


@pytest.mark.parametrize("text", ["", "e", "4", "44", "(4 1 2)", "e4e", "pass", "4;1", "é4"])
def test_text_that_is_no_move_is_invalid(text: str) -> None:
    game, state = load_board(SEED_BOARD)
    with pytest.raises(InvalidMoveError, match="expected a cell such as h8"):
        game.parse_move(state, text)


# Notation, encoding and options


def test_a1_is_the_bottom_left_cell_and_s19_the_top_right() -> None:
    game = ConnectFiveGame(size=19)
    assert game.format_move(cell(game, 18, 0)) == "a1"
    assert game.format_move(cell(game, 0, 18)) == "s19"
    assert game.format_seed_move(cell(game, 0, 18)) == "(18 0)"
    assert game.geometry.rows[0][0] == "a19"
    assert game.geometry.rows[-1][-1] == "s1"


def test_render_shows_coordinates_and_stones() -> None:
    game, state = load_board(SEED_BOARD)
    assert game.render(state).splitlines() == [
        " 5 . . . . .",
        " 4 X X X X .",
        " 3 . O O O O",
        " 2 . . . . .",
        " 1 . . . . .",
        "   a b c d e",
    ]


def test_keys_are_incremental_and_independent_of_move_order() -> None:
    game = ConnectFiveGame(size=9)
    start = game.initial_state()
    one = game.play(game.play(game.play(start, 10), 40), 20)
    other = game.play(game.play(game.play(start, 20), 40), 10)
    assert one == other
    assert game.key(one) == game.board.key_of(one.x, one.o, one.turn)
    assert game.key(one) != game.key(game.play(start, 10))


@pytest.mark.parametrize(
    "options", [{"size": 4}, {"size": 20}, {"size": "15"}, {"size": 15.0}, {"max_plies": 0}]
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="must be"):
        load_game("connect5", **options)


def test_options_recreate_the_game() -> None:
    game = load_game("connect5", size=9, max_plies=50)
    assert dict(game.options) == {"size": 9, "max_plies": 50}
    assert game.title == "Connect Five 9×9"
    assert game.sides == ("X", "O")


# Properties of random games


@settings(max_examples=60, deadline=None)
@given(size=st.integers(5, 9), rng=st.randoms(use_true_random=False))
def test_the_winning_line_is_really_five_contiguous_own_stones(
    size: int, rng: random.Random
) -> None:
    game = ConnectFiveGame(size=size)
    state = game.initial_state()
    while game.outcome(state) is None:
        state = game.play(state, rng.choice(game.legal_moves(state)))
    outcome = game.outcome(state)
    assert outcome is not None
    if outcome.winner is None:
        assert outcome.reason == "board_full"
        return
    owners = game.occupancy(state)
    index = {name: i for i, name in enumerate(game.geometry.cells)}
    points = [divmod(index[name], size) for name in outcome.line]
    assert len(points) >= 5
    assert all(owners[index[name]] == outcome.winner for name in outcome.line)
    step = (points[1][0] - points[0][0], points[1][1] - points[0][1])
    assert step in DIRECTIONS or (-step[0], -step[1]) in DIRECTIONS
    for a, b in itertools.pairwise(points):
        assert (b[0] - a[0], b[1] - a[1]) == step
    assert outcome.winner == 1 - game.to_move(state)


@settings(max_examples=200, deadline=None)
@given(size=st.integers(5, 8), data=st.data())
def test_five_detection_agrees_with_a_plain_scan(size: int, data: st.DataObject) -> None:
    game = ConnectFiveGame(size=size)
    stones = data.draw(st.sets(st.integers(0, size * size - 1), max_size=size * size))
    bits = sum(game.board.bits[c] for c in stones)
    expected = any(all(c in stones for c in run) for run in runs(game, 5))
    assert game.board.has_five(bits) == expected
    assert bool(game.board.five_line(bits)) == expected


# Perft: no line can be won in three plies, so these are n·(n-1)·(n-2) with n cells,
# which also checks that every empty cell and nothing else is a legal move.

PERFT = {
    5: (25, 600, 13_800),
    7: (49, 2_352, 110_544),
    15: (225, 50_400, 11_239_200),
}


@pytest.mark.parametrize("size", sorted(PERFT))
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_from_the_empty_board(size: int, depth: int) -> None:
    game = ConnectFiveGame(size=size)
    assert perft(game, game.initial_state(), depth) == PERFT[size][depth - 1]


def test_perft_from_the_seed_board_stops_below_wins() -> None:
    game, state = load_board(SEED_BOARD)
    assert [perft(game, state, depth) for depth in (1, 2, 3)] == SEED_PERFT


SEED_PERFT = [17, 256, 3_615]
"""Perft from the original example board: X's e4 ends the game, and so does O's a3 unless X
took it first: 17; 16 × 16; 16 × 15 (X took a3) + 15 × 15 × 15."""
