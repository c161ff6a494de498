"""The models' own rules: bounds, board shapes, and consistency inside a message."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from gamut_engine.search import LEVELS
from gamut_protocol import (
    Chat,
    ChatLine,
    Clocks,
    Fischer,
    GameResult,
    Hello,
    HexGeometry,
    MoveMade,
    PerMove,
    Position,
    RoomSnapshot,
    SquareGeometry,
    Untimed,
)
from gamut_protocol.board import cells_of
from gamut_protocol.common import (
    MAX_AI_LEVEL,
    MAX_CHAT_LENGTH,
    MAX_MILLIS,
    MAX_NAME_LENGTH,
)
from gamut_protocol.descriptor import hex_row_lengths
from gamut_protocol.lobby import AiOpponent
from tests.protocol.samples import AFTER, DESCRIPTOR, FINISHED, SNAPSHOT, SQUARE

ROWS_3X2 = (("a2", "b2", "c2"), ("a1", "b1", "c1"))


def test_names_are_bounded() -> None:
    Hello(name="a" * MAX_NAME_LENGTH)
    for bad in ("", "a" * (MAX_NAME_LENGTH + 1), "-ada", ".ada", "ada lovelace", "ada\n", "ädä"):
        with pytest.raises(ValidationError):
            Hello(name=bad)


def test_chat_lines_are_one_line_of_bounded_text() -> None:
    Chat(text="x" * MAX_CHAT_LENGTH)
    Chat(text="  ✓ unicode is fine  ")
    for bad in ("", "   ", "x" * (MAX_CHAT_LENGTH + 1), "two\nlines", "tab\there", "\x00"):
        with pytest.raises(ValidationError):
            Chat(text=bad)


def test_ai_levels_are_the_engines_levels() -> None:
    assert len(LEVELS) == MAX_AI_LEVEL == 8


def test_ai_levels_are_bounded() -> None:
    AiOpponent(level=1)
    AiOpponent(level=MAX_AI_LEVEL)
    for bad in (0, MAX_AI_LEVEL + 1):
        with pytest.raises(ValidationError):
            AiOpponent(level=bad)


def test_time_controls_are_bounded() -> None:
    assert Untimed().kind == "untimed"
    with pytest.raises(ValidationError):
        PerMove(move_ms=99)
    with pytest.raises(ValidationError):
        Fischer(initial_ms=MAX_MILLIS + 1)
    with pytest.raises(ValidationError):
        Fischer(initial_ms=60_000, increment_ms=-1)


@pytest.mark.parametrize(("cells", "limit_ms"), [(25, 5_000), (225, 45_000), (361, 72_200)])
def test_the_seed_per_move_limit_is_n_fifths_of_a_second(cells: int, limit_ms: int) -> None:
    assert PerMove.for_board(cells).move_ms == limit_ms


def test_the_per_move_limit_for_a_board_stays_within_bounds() -> None:
    assert PerMove.for_board(0).move_ms == 100
    assert PerMove.for_board(10**9).move_ms == MAX_MILLIS


def test_clocks_count_down_only_for_the_running_side() -> None:
    clocks = Clocks(remaining_ms=(5_000, 3_000), running=1)
    assert clocks.remaining(0, elapsed_ms=1_000) == 5_000
    assert clocks.remaining(1, elapsed_ms=1_000) == 2_000
    assert clocks.remaining(1, elapsed_ms=9_000) == 0
    assert Clocks(remaining_ms=(1, 2)).remaining(0, elapsed_ms=500) == 1
    with pytest.raises(ValidationError):
        Clocks(remaining_ms=(-1, 0))


def test_square_geometry_must_be_a_rectangle() -> None:
    assert SQUARE.cells == ("a2", "b2", "c2", "a1", "b1", "c1")
    with pytest.raises(ValidationError, match="height 3 has that many rows, not 2"):
        SquareGeometry(width=3, height=3, rows=ROWS_3X2)
    with pytest.raises(ValidationError, match="width 2"):
        SquareGeometry(width=2, height=2, rows=ROWS_3X2)


def test_hex_rows_grow_then_shrink() -> None:
    assert hex_row_lengths(2) == (2, 3, 2)
    assert hex_row_lengths(3) == (3, 4, 5, 4, 3)
    assert len(cells_of([["x"] * n for n in hex_row_lengths(13)])) == 3 * 13 * 12 + 1
    rows = (("a1", "a2"), ("b1", "b2", "b3"), ("c1", "c2"))
    assert HexGeometry(n=2, rows=rows).cells[3] == "b2"
    with pytest.raises(ValidationError, match=r"rows of \[3, 4, 5, 4, 3\] cells"):
        HexGeometry(n=3, rows=rows)


def test_cell_names_are_unique_and_areas_name_cells() -> None:
    with pytest.raises(ValidationError, match="unique"):
        SquareGeometry(width=2, height=1, rows=(("a1", "a1"),))
    with pytest.raises(ValidationError, match=r"area 'goal:0' names cells not on the board"):
        SquareGeometry(width=3, height=2, rows=ROWS_3X2, areas={"goal:0": ("z9",)})
    with pytest.raises(ValidationError):
        SquareGeometry(width=3, height=2, rows=ROWS_3X2, areas={"Goal 0": ("a1",)})


def test_positions_know_the_owner_of_a_named_cell() -> None:
    assert AFTER.owner(DESCRIPTOR, "c2") == 0
    assert AFTER.owner(DESCRIPTOR, "a1") is None


def snapshot_with(**changes: Any) -> RoomSnapshot:
    return RoomSnapshot.model_validate(SNAPSHOT.model_dump() | changes)


def test_a_snapshot_board_must_fit_the_geometry() -> None:
    short = Position(encoding="x", board=(None,) * 5, to_move=1, ply=1)
    with pytest.raises(ValidationError, match="lists 5 cells, not 6"):
        snapshot_with(position=short.model_dump())


def test_a_snapshot_move_list_must_match_its_ply() -> None:
    with pytest.raises(ValidationError, match=r"position\.ply is 1 but 0 moves"):
        snapshot_with(moves=())


def test_a_snapshot_has_a_result_exactly_when_the_game_is_over() -> None:
    with pytest.raises(ValidationError, match="no longer running"):
        snapshot_with(status="finished")
    with pytest.raises(ValidationError, match="no longer running"):
        snapshot_with(result=GameResult(reason="resign", winner=0).model_dump())
    with pytest.raises(ValidationError, match="no legal moves"):
        snapshot_with(status="finished", result={"reason": "resign"})
    assert FINISHED.result is not None
    assert FINISHED.legal_moves == ()


def test_a_move_leads_to_the_next_ply() -> None:
    fields: dict[str, Any] = {"room_id": "r1", "seq": 1, "side": 0, "move": "c2"}
    assert MoveMade(ply=0, position=AFTER, **fields).position.ply == 1
    with pytest.raises(ValidationError, match="leads to ply 3"):
        MoveMade(ply=2, position=AFTER, **fields)


def test_room_events_are_numbered_from_one() -> None:
    with pytest.raises(ValidationError):
        MoveMade(room_id="r1", seq=0, ply=0, side=0, move="c2", position=AFTER)


def test_room_chat_lines_are_numbered_and_lobby_lines_are_not() -> None:
    ChatLine(room_id="r1", seq=1, author="a", text="hi")
    ChatLine(author="a", text="hi")
    with pytest.raises(ValidationError, match="has a seq"):
        ChatLine(room_id="r1", author="a", text="hi")
    with pytest.raises(ValidationError, match="has a seq"):
        ChatLine(seq=1, author="a", text="hi")


def test_sides_are_zero_or_one() -> None:
    with pytest.raises(ValidationError):
        GameResult(winner=2, reason="five")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Position(encoding="x", board=(2,), to_move=0, ply=0)  # type: ignore[arg-type]
