"""The terminal client's boards: layouts, pictures, and the keyboard cursor, for every game."""

from __future__ import annotations

import pytest

from gamut_client.tui.board_cursor import BoardCursor
from gamut_client.tui.board_layout import BoardLayout, Direction
from gamut_client.tui.board_picture import Marks, draw_board, side_glyphs
from gamut_engine import GAMES, load_game
from gamut_protocol import (
    BoardGeometry,
    CellPlace,
    GameDescriptor,
    HexGeometry,
    NotationHint,
    shared_affix,
)
from gamut_server.rooms.describe import describe
from tests.client.tui_support import play_out

ALL_BOARDS = [
    ("network", {}),
    ("network", {"rules": "2015"}),
    ("connect5", {"size": 15}),
    ("connect5", {"size": 19}),
    ("loa", {"size": 5}),
    ("loa", {"size": 8}),
    ("crusher", {"n": 2}),
    ("crusher", {"n": 3}),
    ("crusher", {"n": 6}),
    ("hex", {"size": 5}),
    ("connect4", {"width": 9, "height": 4}),
]


def layout_of(name: str, **options: object) -> BoardLayout:
    return BoardLayout.from_descriptor(describe(load_game(name, **options)))


def test_every_registered_game_has_a_board_case() -> None:
    assert {name for name, _ in ALL_BOARDS} == set(GAMES)


@pytest.mark.parametrize(("name", "options"), ALL_BOARDS)
def test_every_cell_is_drawn_once_at_its_place(name: str, options: dict[str, object]) -> None:
    game = load_game(name, **options)
    layout = BoardLayout.from_descriptor(describe(game))
    picture = draw_board(layout, game.occupancy(game.initial_state()), ("X", "O"), Marks())
    drawn = [segment.cell for line in picture.lines for segment in line if segment.cell]
    assert sorted(drawn) == sorted(game.geometry.cells)
    top = 1 if layout.column_labels else 0
    margins = set()
    for cell, place in layout.places.items():
        x = _column_of(picture, cell)
        margins.add(x - place.x)
        assert picture.cell_at(x + 1, top + place.row) == cell
    assert len(margins) == 1


def _column_of(picture, cell: str) -> int:
    for line in picture.lines:
        column = 0
        for segment in line:
            if segment.cell == cell:
                return column
            column += len(segment.text)
    raise KeyError(cell)


def test_square_boards_take_their_coordinates_from_the_cell_names() -> None:
    network = layout_of("network")
    assert network.column_labels == tuple("01234567")
    assert network.row_labels == tuple("01234567")
    connect5 = layout_of("connect5", size=15)
    assert connect5.column_labels == tuple("abcdefghijklmno")
    assert connect5.row_labels == tuple(str(row) for row in range(15, 0, -1))
    assert layout_of("network", rules="2015").row_labels == tuple("ABCDEFGH")


def test_shared_affix_prefers_the_longer_of_prefix_and_suffix() -> None:
    assert shared_affix(["a11", "b11", "c11"]) == "11"
    assert shared_affix(["a15", "a14", "a9"]) == "a"
    assert shared_affix(["10", "11", "17"]) == "1"
    assert shared_affix(["ab", "cd"]) == ""
    assert shared_affix(["only"]) == "only"


def test_the_lines_of_action_board_reads_like_a_chess_diagram() -> None:
    game = load_game("loa", size=8)
    layout = BoardLayout.from_descriptor(describe(game))
    picture = draw_board(layout, game.occupancy(game.initial_state()), ("B", "W"), Marks())
    assert picture.plain() == [
        "   a  b  c  d  e  f  g  h ",
        "8  ·  B  B  B  B  B  B  ·  8",
        "7  W  ·  ·  ·  ·  ·  ·  W  7",
        "6  W  ·  ·  ·  ·  ·  ·  W  6",
        "5  W  ·  ·  ·  ·  ·  ·  W  5",
        "4  W  ·  ·  ·  ·  ·  ·  W  4",
        "3  W  ·  ·  ·  ·  ·  ·  W  3",
        "2  W  ·  ·  ·  ·  ·  ·  W  2",
        "1  ·  B  B  B  B  B  B  ·  1",
        "   a  b  c  d  e  f  g  h ",
    ]


def test_crushers_hex_board_offsets_each_row_by_half_a_cell() -> None:
    game = load_game("crusher", n=3)
    layout = BoardLayout.from_descriptor(describe(game))
    picture = draw_board(layout, game.occupancy(game.initial_state()), ("W", "B"), Marks())
    assert [line.rstrip() for line in picture.plain()] == [
        "a      W   W   W",
        "b    ·   W   W   ·",
        "c  ·   ·   ·   ·   ·",
        "d    ·   B   B   ·",
        "e      B   B   B",
    ]
    assert layout.column_labels == ()
    assert layout.places["c1"].x == 0
    assert layout.places["a1"].x == 4


def test_networks_goals_and_dead_corners_are_tagged_and_the_corners_left_blank() -> None:
    game = load_game("network")
    layout = BoardLayout.from_descriptor(describe(game))
    picture = draw_board(layout, game.occupancy(game.initial_state()), ("W", "B"), Marks())
    assert "dead" in picture.segment_of("00").tags
    assert picture.segment_of("00").text == "   "
    assert "goal:0" in picture.segment_of("03").tags
    assert "goal:1" in picture.segment_of("30").tags
    middle = picture.segment_of("33").tags
    assert not {"dead", "goal:0", "goal:1"} & middle
    assert picture.plain()[1] == "0     ·  ·  ·  ·  ·  ·     0"


def test_marks_tag_the_cursor_the_pick_the_targets_the_last_move_and_the_line() -> None:
    game = load_game("network")
    layout = BoardLayout.from_descriptor(describe(game))
    state = play_out(game, ("01", "10"))
    marks = Marks(
        cursor="33",
        selected="01",
        targets=frozenset({"02"}),
        last_move=("10",),
        line=frozenset({"01"}),
    )
    picture = draw_board(layout, game.occupancy(state), ("W", "B"), marks)
    assert "cursor" in picture.segment_of("33").tags
    assert {"selected", "line", "side:0"} <= picture.segment_of("01").tags
    assert "target" in picture.segment_of("02").tags
    assert {"last", "side:1"} <= picture.segment_of("10").tags
    assert picture.segment_of("10").text == " B "


def test_side_glyphs_are_initials_unless_they_clash() -> None:
    assert side_glyphs(("White", "Black")) == ("W", "B")
    assert side_glyphs(("X", "O")) == ("X", "O")
    assert side_glyphs(("Blue", "Brown")) == ("●", "○")


@pytest.mark.parametrize(("name", "options"), ALL_BOARDS)
def test_vertical_steps_reach_a_touching_cell_and_come_back(
    name: str, options: dict[str, object]
) -> None:
    layout = layout_of(name, **options)
    half = layout.unit if layout.pitch > layout.unit else 0
    for cell, place in layout.places.items():
        steps: tuple[tuple[Direction, Direction, int], ...] = (
            ("down", "up", place.row + 1),
            ("up", "down", place.row - 1),
        )
        for there, back, row in steps:
            if not 0 <= row < len(layout.rows):
                assert layout.step(cell, there) == cell
                continue
            reached = layout.step(cell, there)
            assert abs(layout.places[reached].x - place.x) == half
            touching = [n for n in layout.rows[row] if abs(layout.places[n].x - place.x) == half]
            if len(touching) == len({layout.places[n].x for n in touching}) and (
                half == 0 or len(touching) == 2
            ):
                assert layout.step(reached, back) == cell
        if place.index < len(layout.rows[place.row]) - 1:
            assert layout.step(layout.step(cell, "right"), "left") == cell


def test_the_cursor_stays_on_the_board_at_its_edges() -> None:
    layout = layout_of("crusher", n=3)
    assert layout.step("a1", "up") == "a1"
    assert layout.step("a1", "left") == "a1"
    assert layout.step("e3", "down") == "e3"
    assert layout.step("c5", "right") == "c5"
    assert layout.step("c3", "up") == "b2"
    assert layout.step("b2", "down") == "c3"
    assert layout.centre() == "c3"


def test_a_board_cursor_starts_in_the_middle_and_points_at_cells() -> None:
    cursor = BoardCursor(layout_of("connect5", size=15))
    assert cursor.cell == "h8"
    cursor.point("a1")
    assert cursor.cell == "a1"
    cursor.point("zz99")
    assert cursor.cell == "a1"
    assert cursor.move("up") == "a2"


def test_a_generic_hex_board_the_engine_does_not_know_still_draws() -> None:
    rows = (("p", "q"), ("r", "s", "t"), ("u", "v"))
    descriptor = GameDescriptor(
        name="mystery",
        title="Mystery",
        sides=("Red", "Blue"),
        geometry=HexGeometry(n=2, rows=rows),
        notation=NotationHint(summary="name a cell"),
    )
    layout = BoardLayout.from_descriptor(descriptor)
    picture = draw_board(layout, (0, None, None, 1, None, None, None), ("R", "B"), Marks())
    assert [line.rstrip() for line in picture.plain()] == [
        "    R   ·",
        "  ·   B   ·",
        "    ·   ·",
    ]


def test_far_flung_centres_keep_their_order_but_not_their_distances() -> None:
    board = BoardGeometry(
        rows=(("p", "q", "r"),),
        row_names=("1",),
        places={
            "p": CellPlace(x=0, y=0),
            "q": CellPlace(x=0.001, y=0),
            "r": CellPlace(x=4000, y=0),
        },
    )
    descriptor = GameDescriptor(
        name="far",
        title="Far",
        sides=("Red", "Blue"),
        geometry=board,
        notation=NotationHint(summary="name a cell"),
    )
    layout = BoardLayout.from_descriptor(descriptor)
    assert [layout.places[cell].x for cell in "pqr"] == [0, 3, 6]
    assert layout.width == 9
