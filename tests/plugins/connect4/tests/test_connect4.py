"""Connect Four: Gamut's conformance kit over every variant, and the rules' own examples."""

import pytest

from gamut_engine import IllegalMoveError, Outcome, load_game
from gamut_engine.testing import Case, cases


@pytest.mark.parametrize("case", cases("connect4"), ids=str)
def test_the_game_keeps_the_engine_contract(case: Case) -> None:
    case.run()


def test_a_stone_falls_to_the_lowest_empty_cell() -> None:
    game = load_game("connect4")
    state = game.initial_state()
    for text in ("d", "d"):
        state = game.apply(state, game.parse_move(state, text))
    assert game.format_move(game.parse_move(state, "d")) == "d3"
    with pytest.raises(IllegalMoveError, match="lowest empty cell"):
        game.parse_move(state, "d5")


def test_four_in_a_row_wins() -> None:
    game = load_game("connect4")
    state = game.initial_state()
    for text in ("a", "a", "b", "b", "c", "c", "d"):
        state = game.apply(state, game.parse_move(state, text))
    assert game.outcome(state) == Outcome(0, "line", ("a1", "b1", "c1", "d1"))
