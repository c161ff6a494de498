"""The patterns a Connect Five position carries agree with a scan of the whole board."""

from __future__ import annotations

import random

import pytest

from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.games.connect5_board import Connect5State
from gamut_engine.games.connect5_eval import (
    OPEN_FOUR_NEXT,
    TEMPO,
    WIN_NEXT,
    evaluate,
    order_by_threats,
    order_moves,
)
from gamut_engine.games.connect5_lines import KINDS, SIDE_SPAN
from gamut_engine.games.connect5_scan import (
    WEIGHTS,
    Patterns,
    line_threats,
    patterns,
    threats,
)


def scanned_evaluation(game: ConnectFiveGame, state: Connect5State) -> int:
    """The evaluation computed from a scan of the whole board, as a reference."""
    if state.won:
        return -WIN_NEXT
    own, enemy = (state.o, state.x) if state.turn else (state.x, state.o)
    mine, theirs = line_threats(game.board, own, enemy)
    me, them = patterns(mine), patterns(theirs)
    if me.win_cells:
        return WIN_NEXT
    if them.win_cells >= 2:
        return -WIN_NEXT
    if not them.win_cells and not them.threes and threats(mine).winning:
        return OPEN_FOUR_NEXT
    first, second = scanned_worth(me), scanned_worth(them)
    if them.win_cells:
        return (first * TEMPO[1] - second * TEMPO[0]) // TEMPO[1]
    return (first * TEMPO[0] - second * TEMPO[1]) // TEMPO[1]


def scanned_worth(counts: Patterns) -> int:
    four, open_three, three, two, one = WEIGHTS
    return (
        four * (counts.fours + 2 * counts.open_fours)
        + open_three * counts.open_threes
        + three * counts.threes
        + two * counts.twos
        + one * counts.ones
    )


def scanned_masks(game: ConnectFiveGame, state: Connect5State) -> tuple[int, ...]:
    """Both sides' masks, direction by direction, from a scan of the whole board."""
    masks = [0] * (2 * SIDE_SPAN)
    for side, (own, enemy) in enumerate(((state.x, state.o), (state.o, state.x))):
        for direction, line in enumerate(line_threats(game.board, own, enemy)[0]):
            base = side * SIDE_SPAN + direction * KINDS
            masks[base : base + KINDS] = (line.wins, line.fours, line.open_four_cells, line.threes)
    return tuple(masks)


def random_game(game: ConnectFiveGame, seed: int, plies: int) -> list[Connect5State]:
    """The search's positions of a game of moves near the stones, some of them its first."""
    rng = random.Random(seed)
    state = game.search_state(game.initial_state())
    seen = [state]
    for _ in range(plies):
        if game.outcome(state) is not None:
            break
        near = game.search_moves(state)
        state = game.play(state, rng.choice(near[:3] if rng.random() < 0.5 else near))
        seen.append(state)
    return seen


@pytest.mark.parametrize(("size", "seed"), [(15, 1), (15, 2), (9, 3), (7, 4), (19, 5)])
def test_played_patterns_equal_those_of_the_same_stones_from_scratch(size: int, seed: int) -> None:
    game = ConnectFiveGame(size=size)
    for state in random_game(game, seed, plies=size * size):
        scratch = game.search_state(game.state_from_stones(state.x, state.o, state.turn))
        assert state.masks == scratch.masks == scanned_masks(game, state)
        assert state.counts == scratch.counts
        assert state.won == scratch.won


@pytest.mark.parametrize(("size", "seed"), [(15, 6), (15, 7), (11, 8), (19, 9)])
def test_the_evaluation_and_order_equal_a_scan_of_the_whole_board(size: int, seed: int) -> None:
    game = ConnectFiveGame(size=size)
    compared = 0
    for state in random_game(game, seed, plies=120):
        assert evaluate(state) == scanned_evaluation(game, state)
        if game.outcome(state) is None:
            assert order_moves(game.board, state) == scanned_order(game, state)
            compared += 1
    assert compared > 20


def scanned_order(game: ConnectFiveGame, state: Connect5State) -> list[int]:
    """The move order from threats found by a scan of the whole board, as a reference."""
    own, enemy = (state.o, state.x) if state.turn else (state.x, state.o)
    mine, theirs = line_threats(game.board, own, enemy)
    occupied = own | enemy
    if not occupied:
        return [game.board.centre]
    return order_by_threats(game.board, occupied, threats(mine), threats(theirs))[0]


def test_the_rules_positions_carry_no_patterns_and_play_like_the_searchs() -> None:
    game = ConnectFiveGame(size=15)
    rules = game.initial_state()
    for searched in random_game(game, 10, plies=60)[1:]:
        move = next(iter(game.board.cells_of((searched.x | searched.o) & ~(rules.x | rules.o))))
        rules = game.play(rules, move)
        assert rules.masks == rules.counts == ()
        assert rules[:6] == searched[:6]
        assert game.evaluate(rules) == evaluate(searched)
        if game.outcome(rules) is not None:
            break
        assert game.search_moves(rules) == game.search_moves(searched)
