"""Choosing moves on the board: the cells of legal moves, and what Enter does on a cell."""

from __future__ import annotations

from gamut_client.tui.board_cursor import BoardCursor
from gamut_client.tui.board_layout import BoardLayout
from gamut_client.tui.moves import MoveIndex, cells_in_text, choose, move_cells
from gamut_engine import load_game
from gamut_protocol import GameDescriptor, NotationHint, SquareGeometry
from gamut_server.rooms.describe import describe, legal_texts
from tests.client.tui_support import play_out


def index_after(name: str, moves: tuple[str, ...], **options: object) -> MoveIndex:
    game = load_game(name, **options)
    state = play_out(game, moves)
    return MoveIndex.build(describe(game), game.encode(state), legal_texts(game, state), game)


def test_cells_are_read_out_of_move_text_longest_name_first() -> None:
    cells = ["d3", "b2", "x1", "a1", "a11"]
    assert cells_in_text("d3xb2", cells) == ("d3", "b2")
    assert cells_in_text("a11-x1", cells) == ("a11", "x1")
    assert cells_in_text("pass", cells) == ()


def test_the_engine_and_the_text_agree_on_the_cells_of_every_opening_move() -> None:
    for name, options in (("network", {}), ("loa", {}), ("crusher", {"n": 3}), ("connect5", {})):
        game = load_game(name, **options)
        state = game.initial_state()
        descriptor = describe(game)
        legal = legal_texts(game, state)
        by_engine = move_cells(descriptor, game.encode(state), legal, game)
        by_text = move_cells(descriptor, game.encode(state), legal, None)
        assert by_engine == by_text
        assert set(by_engine) == set(legal)


def test_network_chips_are_placed_with_one_enter() -> None:
    index = index_after("network", ())
    assert index.steps == {}
    assert index.placements["33"] == "33"
    assert "00" not in index.placements
    assert "30" not in index.placements  # Black's goal row: White may not place there
    choice = choose(index, "33", None)
    assert (choice.move, choice.selected) == ("33", None)
    refused = choose(index, "00", None)
    assert refused.move is None
    assert refused.message == "no legal move starts or ends on 00"


def test_network_steps_need_a_pick_and_a_target_once_the_chips_are_down() -> None:
    twenty: tuple[str, ...] = ("72", "26", "35", "31", "14", "17", "45", "50", "01", "47")
    twenty += ("33", "53", "12", "51", "65", "46", "16", "64", "75", "34")
    index = index_after("network", twenty)
    assert not index.placements
    assert "01" in index.steps
    assert "26" not in index.steps
    assert index.steps["01"]["11"] == "01-11"
    picked = choose(index, "01", None)
    assert picked.selected == "01"
    assert picked.move is None
    assert picked.message is not None
    assert "picked up" in picked.message
    target = next(iter(index.targets("01")))
    assert choose(index, target, "01").move == index.steps["01"][target]
    assert choose(index, "01", "01") == choose(index, "01", "01")
    assert choose(index, "01", "01").selected is None


def test_a_crusher_pick_lists_slides_and_crushes() -> None:
    index = index_after("crusher", ("b2-c3", "e3xc3"), n=3)
    assert index.steps["a3"] == {"c3": "a3xc3", "b4": "a3-b4"}
    assert index.targets("a2") == {"c4", "b2"}
    assert choose(index, "e1", None).message == "no legal move starts or ends on e1"
    elsewhere = choose(index, "c5", "a2")
    assert elsewhere.selected == "a2"
    assert elsewhere.move is None


def test_picking_another_of_ones_own_pieces_switches_the_pick() -> None:
    index = index_after("loa", ())
    assert choose(index, "c1", "b1").selected == "c1"


def test_a_game_the_engine_does_not_know_reads_cells_from_the_moves() -> None:
    rows = (("p1", "p2"), ("q1", "q2"))
    descriptor = GameDescriptor(
        name="mystery",
        title="Mystery",
        sides=("Red", "Blue"),
        geometry=SquareGeometry(width=2, height=2, rows=rows),
        notation=NotationHint(summary="from-to"),
    )
    index = MoveIndex.build(descriptor, "opaque", ("p1-q1", "p1-q2", "p2", "pass"))
    assert index.steps == {"p1": {"q1": "p1-q1", "q2": "p1-q2"}}
    assert index.placements == {"p2": "p2"}
    assert index.others == ("pass",)


def test_the_board_cursor_picks_up_moves_and_puts_back() -> None:
    game = load_game("loa")
    layout = BoardLayout.from_descriptor(describe(game))
    cursor = BoardCursor(layout, cell="b1")
    cursor.offer(index_after("loa", ()))
    marks = cursor.marks((), frozenset())
    assert marks.cursor == "b1"
    assert marks.preview == cursor.index.targets("b1")
    assert cursor.press().selected == "b1"
    marks = cursor.marks((), frozenset())
    assert marks.selected == "b1"
    assert marks.targets
    assert not marks.preview
    target = sorted(marks.targets)[0]
    cursor.point(target)
    assert cursor.press().move == cursor.index.steps["b1"][target]
    assert cursor.selected is None
    cursor.point("b1")
    cursor.press()
    assert cursor.cancel() is True
    assert cursor.selected is None
    assert cursor.cancel() is False


def test_the_board_cursor_has_nothing_to_choose_when_it_is_not_ones_turn() -> None:
    cursor = BoardCursor(BoardLayout.from_descriptor(describe(load_game("loa"))), cell="b1")
    cursor.offer(index_after("loa", ()))
    cursor.press()
    cursor.offer(MoveIndex())
    assert cursor.selected is None
    assert cursor.press().message == "no move to choose now"


def test_enter_anywhere_in_a_pick_line_plays_its_one_placement() -> None:
    index = index_after("connect4", ("d1", "d2"), width=4, height=4)
    assert index.placements == {"a1": "a1", "b1": "b1", "c1": "c1", "d3": "d3"}
    assert choose(index, "d4", None).move == "d3"
    assert choose(index, "d1", None).move == "d3"  # on a stone already down
    assert choose(index, "a3", None).move == "a1"
    # A line holding two placements picks neither: only its own cells choose them.
    two = MoveIndex.from_cells({"a1": ("a1",), "a3": ("a3",)}, [("a3", "a2", "a1")])
    assert two.picks == {}
    assert choose(two, "a2", None).message == "no legal move starts or ends on a2"
