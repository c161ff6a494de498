"""Network's evaluation and move ordering: sanity, symmetry, and the original grading behaviours."""

from __future__ import annotations

import random

import pytest

from gamut_engine.games.network import NetworkGame, NetworkState
from gamut_engine.games.network_eval import TEMPO, THREAT, WIN_NEXT
from gamut_engine.search import Limits, Searcher

CS61B = NetworkGame()
V2015 = NetworkGame(rules="2015")


def position(white: str, black: str, ply: int) -> NetworkState:
    """A cs61b position with the chips named and ``ply`` moves played."""
    cells = ["."] * 64
    for symbol, names in (("W", white), ("B", black)):
        for name in names.split():
            cells[int(name[0]) + 8 * int(name[1])] = symbol
    rows = "/".join("".join(cells[row * 8 : row * 8 + 8]) for row in range(8))
    return CS61B.decode(f"{rows} {'WB'[ply & 1]} {ply}")


def transposed(state: NetworkState) -> NetworkState:
    """The board mirrored in its main diagonal, colours swapped, the other side to move."""
    rows = CS61B.encode(state).split()[0].split("/")
    swap = {"W": "B", "B": "W", ".": "."}
    mirrored = "/".join("".join(swap[rows[x][y]] for x in range(8)) for y in range(8))
    ply = state.ply + 1
    return CS61B.decode(f"{mirrored} {'WB'[ply & 1]} {ply}")


def as_2015(state: NetworkState) -> NetworkState:
    """The same board under 2015 rules: Player 1 owns the rows, as Black does."""
    rows = CS61B.encode(state).split()[0].replace("W", "2").replace("B", "1")
    ply = state.ply + 1
    return V2015.decode(f"{rows} {'12'[ply & 1]} {ply}")


def random_states(count: int, seed: int = 0) -> list[NetworkState]:
    """Running positions from random cs61b games."""
    rng = random.Random(seed)
    states: list[NetworkState] = []
    while len(states) < count:
        state = CS61B.initial_state()
        while CS61B.outcome(state) is None:
            states.append(state)
            state = CS61B.play(state, rng.choice(CS61B.legal_moves(state)))
    return states[:count]


def test_the_start_is_even() -> None:
    assert CS61B.evaluate(CS61B.initial_state()) == TEMPO
    assert V2015.evaluate(V2015.initial_state()) == TEMPO


def test_mirrored_positions_score_the_same() -> None:
    """Mirroring, or the 2015 rules, swap the sides' goals, so they swap their scores too."""
    for state in random_states(150):
        score = CS61B.evaluate(state)
        assert CS61B.evaluate(transposed(state)) == score
        assert V2015.evaluate(as_2015(state)) == score


def test_scores_stay_within_bounds() -> None:
    for state in random_states(300, seed=1):
        assert abs(CS61B.evaluate(state)) < 1_000_000


def test_connected_chips_with_goals_beat_scattered_ones() -> None:
    black = "30 22 45 67"
    connected = position("02 22 42 64 74", black.replace("22", "23"), ply=10)
    scattered = position("11 16 61 66 34", black, ply=10)
    assert CS61B.evaluate(connected) > CS61B.evaluate(scattered) + 100


def test_cutting_an_enemy_connection_helps() -> None:
    """White cuts Black's 33-35 connection with 34, or plays elsewhere."""
    black = "60 65 55 33 35"
    cut = position("02 21 51 14 34", black, ply=11)
    elsewhere = position("02 21 51 14 73", black, ply=11)
    assert CS61B.evaluate(cut) < CS61B.evaluate(elsewhere)  # Black to move: worse for Black


def test_a_network_in_one_add_is_seen() -> None:
    """Black's 60-65-55-33-35 lacks only its last chip (57 or 17)."""
    black_to_move = position("02 21 51 14 73", "60 65 55 33 35", ply=11)
    assert CS61B.evaluate(black_to_move) == WIN_NEXT
    white_to_move = position("02 21 51 14 73 76", "60 65 55 33 35", ply=12)
    assert CS61B.evaluate(white_to_move) < -THREAT


def test_search_moves_are_legal_moves_each_once() -> None:
    """Which moves may be left out is tested with the threats."""
    for state in random_states(120, seed=2):
        ordered = CS61B.search_moves(state)
        assert ordered
        assert len(set(ordered)) == len(ordered)
        assert set(ordered) <= set(CS61B.legal_moves(state))


def test_search_moves_put_connecting_moves_first() -> None:
    state = position("02 21 51 14 73", "60 65 55 33 35", ply=11)
    first = {CS61B.format_move(move) for move in CS61B.search_moves(state)[:8]}
    assert first & {"57", "17"}


@pytest.mark.parametrize("game", [CS61B, V2015], ids=["cs61b", "2015"])
def test_the_ai_takes_a_win(game: NetworkGame) -> None:
    state = position("02 21 51 14 73", "60 65 55 33 35", ply=11)
    if game is V2015:
        state = as_2015(state)
    move = Searcher(game).search(state, Limits(depth=1)).move
    outcome = game.outcome(game.play(state, move))
    assert outcome is not None
    assert outcome.winner == game.to_move(state)


@pytest.mark.parametrize("game", [CS61B, V2015], ids=["cs61b", "2015"])
def test_the_ai_blocks_a_loss(game: NetworkGame) -> None:
    state = position("02 21 51 14 73", "60 65 55 33 35", ply=10)
    if game is V2015:
        state = as_2015(transposed(state))
    move = Searcher(game).search(state, Limits(depth=2)).move
    after = game.play(state, move)
    assert not any(game.outcome(game.play(after, reply)) for reply in game.legal_moves(after))
