"""The timed compiled search's evaluation: the reference's score and the threats' combinations.

A cell where one stone makes two open threes (three-three) or a four and an open three
(four-three) is a threat one stone cannot meet: worth more than the reference counts to
the side to move, and a danger to the side that must answer it. Closed threes are not.
"""

from __future__ import annotations

import os

import pytest

from gamut_engine.games import connect5_core
from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.games.connect5_core import CompiledConnectFive

pytestmark = pytest.mark.skipif(
    not connect5_core.built() and not os.environ.get("CI"),
    reason="Connect Five's compiled search is not built (no C compiler at install)",
)

SIZE = 15
X_SIDE, O_SIDE = 0, 1
CORNERS = ((0, 0), (0, 14), (14, 0), (14, 14))
"""Where O's stones stand out of the way: no window of O's holds two of them."""


def board(x: list[tuple[int, int]], o: list[tuple[int, int]]) -> bytes:
    """The core's board with X's and O's stones at these (row, column) cells."""
    cells = bytearray(SIZE * SIZE)
    for stones, mark in ((x, 1), (o, 2)):
        for row, column in stones:
            cells[row * SIZE + column] = mark
    return bytes(cells)


def core() -> CompiledConnectFive:
    """A fresh compiled search of a 15×15 game."""
    game = ConnectFiveGame(size=SIZE)
    found = game.compiled_search()
    assert found is not None
    return found


def gain(position: bytes, turn: int) -> int:
    """What the combinations add to the reference's score for ``turn`` to move."""
    compiled = core().core
    return compiled.evaluate(position, turn, True) - compiled.evaluate(position, turn)


# Two of X's twos, open at both ends, crossing at h8 (row 7, column 7): a stone there
# makes two open threes at once.
CROSSING = [(7, 5), (7, 6), (5, 7), (6, 7)]


def test_a_three_three_counts_for_the_side_to_move_and_against_the_other() -> None:
    position = board(CROSSING, list(CORNERS))
    assert gain(position, X_SIDE) > 1000
    assert gain(position, O_SIDE) < 0


def test_a_closed_two_makes_no_three_three() -> None:
    # O's stones close both twos at one end: a stone at h8 makes closed threes only, and
    # what is left is the few open twos along the diagonals.
    position = board(CROSSING, [(7, 4), (4, 7), (0, 0), (14, 14)])
    assert abs(gain(position, X_SIDE)) < 1000
    assert abs(gain(position, O_SIDE)) < 1000


def test_a_four_three_counts_against_the_side_that_must_answer_it() -> None:
    # X's closed three along row 8 (a stone at h8 makes a four) crosses an open two.
    position = board([(7, 4), (7, 5), (7, 6), (5, 7), (6, 7)], [(7, 3), *CORNERS])
    assert gain(position, O_SIDE) < 0
    assert gain(position, X_SIDE) > 0
