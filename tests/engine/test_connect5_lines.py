"""Connect Five's line-by-line threat patterns agree with the whole-board computation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamut_engine.games import connect5_scan
from gamut_engine.games.connect5_board import board_for
from gamut_engine.games.connect5_lines import LineTables, side_threats, wins_of


@pytest.mark.parametrize("size", [5, 9, 15])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_stones_placed_one_by_one_give_the_whole_board_patterns(
    size: int, data: st.DataObject
) -> None:
    board = board_for(size)
    tables = LineTables(board)
    cells = data.draw(
        st.lists(
            st.integers(0, board.cell_count - 1),
            unique=True,
            max_size=min(40, board.cell_count),
        )
    )
    position = tables.position(0, 0)
    for index, cell in enumerate(cells):
        position = tables.play(position, cell, index % 2)
        assert position == tables.position(position.x, position.o)
        for side in (0, 1):
            own, enemy = (position.x, position.o) if side == 0 else (position.o, position.x)
            whole = connect5_scan.side_threats(board, own, enemy)
            lines = side_threats(position, side)
            assert (whole.wins, whole.fours, whole.winning, whole.threes) == tuple(lines)
            assert wins_of(position, side) == whole.wins


def test_a_four_shows_its_winning_cell_and_a_block_removes_it() -> None:
    board = board_for(15)
    tables = LineTables(board)
    position = tables.position(0, 0)
    for cell in (112, 113, 114, 115):  # h8 to k8 in a row
        position = tables.play(position, cell, 0)
    assert board.cells_of(wins_of(position, 0)) == [111, 116]
    blocked = tables.play(position, 116, 1)
    assert board.cells_of(wins_of(blocked, 0)) == [111]
    assert wins_of(blocked, 1) == 0
