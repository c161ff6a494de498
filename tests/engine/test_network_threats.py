"""Network threats, the narrowing of step moves and the AI's tactics in both phases.

A step position is quiet when neither side can complete a network with its next move;
only then may the search leave step moves out, and never a winning one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamut_engine.games import network_threats
from gamut_engine.games.network import NetworkGame, NetworkState
from gamut_engine.games.network_board import CHIPS, DOWN_RAYS, SQUARES, UP_RAYS, squares_of
from gamut_engine.games.network_order import ADD_BREADTH, DEFENCE_CHECKS, STEP_BREADTH
from gamut_engine.games.network_rules import targets
from gamut_engine.games.network_threats import (
    _threat_squares,
    _winning_steps,
    add_threats,
    sight_counts,
    winning_steps,
)
from gamut_engine.search import Limits, Searcher

CS61B = NetworkGame()
V2015 = NetworkGame(rules="2015")
GAMES = pytest.mark.parametrize("game", [CS61B, V2015], ids=["cs61b", "2015"])

STEP_WIN = {
    "cs61b": ".BB.B.../W.....B./W.W.W.../....W..W/.B..B.W./.B.W.B../...B..WW/....B... B 21",
    "2015": "......../...1..12/..2...../21.1..2./..2..2../.11..112/22..2.../.1...1.. 2 35",
}
"""Step positions where the side to move has a winning step (and the opponent one too)."""
STEP_DEFENCE = {
    "cs61b": (
        ".B....../WB....BW/.W.B..B./.B..W.WW/.W..W.../..B...B./W....BW./..B..... W 36",
        {"01-21"},
    ),
    "2015": (
        "....1.../.......2/.22...../...1..12/.212...2/......1./21.2.21./.1.11... 1 22",
        {"D4-E5", "E3-E5"},
    ),
}
"""Step positions where the opponent threatens a network and only these steps stop it."""


def wins(game: NetworkGame, state: NetworkState) -> list[int]:
    """The mover's legal moves that win at once, by trying every one."""
    side = game.to_move(state)
    return [
        move
        for move in game.legal_moves(state)
        if (outcome := game.outcome(game.play(state, move))) and outcome.winner == side
    ]


def loses_at_once(game: NetworkGame, state: NetworkState, move: int) -> bool:
    """Whether ``move`` lets the opponent win with its reply (or loses by itself)."""
    after = game.play(state, move)
    if (outcome := game.outcome(after)) is not None:
        return outcome.winner != game.to_move(state)
    return bool(wins(game, after))


def step_loses_at_once(game: NetworkGame, state: NetworkState, move: int) -> bool:
    """:func:`loses_at_once` for a step, the replies found by :func:`winning_steps` (whose
    exactness is tested on its own)."""
    after = game.play(state, move)
    if (outcome := game.outcome(after)) is not None:
        return outcome.winner != game.to_move(state)
    own, other = after.boards()
    return bool(winning_steps(game._variant, game.to_move(after), own, other, 1))


def random_states(game: NetworkGame, count: int, seed: int, steps: bool) -> list[NetworkState]:
    """Running positions from random games: step positions, or add positions."""
    rng = random.Random(seed)
    found: list[NetworkState] = []
    while len(found) < count:
        state = game.initial_state()
        while game.outcome(state) is None and len(found) < count:
            if (state.ply >= 2 * CHIPS) == steps:
                found.append(state)
            state = game.play(state, rng.choice(game.legal_moves(state)))
    return found


def step_states(game: NetworkGame, count: int, seed: int) -> list[NetworkState]:
    """Running step positions from random games."""
    return random_states(game, count, seed, steps=True)


@GAMES
def test_adds_searched_are_the_wins_else_the_defences_else_all(game: NetworkGame) -> None:
    """With a win at hand only wins are searched; under a threat only the moves that do
    not lose at once (all if every move does); in a quiet position the best few."""
    for state in random_states(game, 80, seed=5, steps=False):
        legal = game.legal_moves(state)
        searched = sorted(game.search_moves(state))
        winning = wins(game, state)
        if winning:
            assert searched
            assert set(searched) <= set(winning)
            continue
        safe = [move for move in legal if not loses_at_once(game, state, move)]
        if len(safe) < len(legal):
            assert set(safe) <= set(searched) <= set(legal)
            if state.boards()[1].bit_count() < CHIPS:
                assert searched == sorted(safe or legal), "checked on the board, every one"
        else:
            assert len(searched) == min(len(legal), ADD_BREADTH)
            assert set(searched) <= set(legal)


@GAMES
def test_winning_steps_are_exactly_the_winning_moves(game: NetworkGame) -> None:
    variant = game._variant
    for state in step_states(game, 120, seed=3):
        side = game.to_move(state)
        own, other = state.boards()
        assert sorted(winning_steps(variant, side, own, other, 99)) == sorted(wins(game, state))


@GAMES
def test_steps_searched_are_the_wins_else_the_defences_else_the_best(
    game: NetworkGame,
) -> None:
    """With a win at hand only one win is searched; under a threat only the steps that do
    not lose at once (all if every step does); in a quiet position the best few."""
    narrowed = defended = 0
    for state in step_states(game, 80, seed=4):
        legal = game.legal_moves(state)
        searched = game.search_moves(state)
        winning = wins(game, state)
        if winning:
            assert len(searched) == 1
            assert searched[0] in winning
            continue
        own, other = state.boards()
        if winning_steps(game._variant, game.to_move(state) ^ 1, other, own, 1):
            safe = [move for move in legal if not step_loses_at_once(game, state, move)]
            assert set(safe) <= set(searched) <= set(legal)
            defended += bool(safe) and len(searched) < len(legal)
        elif len(legal) > STEP_BREADTH:
            narrowed += 1
            assert len(searched) == STEP_BREADTH
            assert set(searched) <= set(legal)
    assert narrowed
    assert defended


SLOW_DEFENCES = {
    "steps": "..1.1.../..221212/.....2../.12.1.1./...212../......../2..1...2/....1... 2 21",
    "last add": "..1.1.1./..221212/.....2../.12.1.1./.....2../......../2..1...2/....1... 2 19",
}
"""2015 positions under a threat with many candidate defences: checking every one on the
board took 57 and 25 scans for winning steps (12 to 24 ms of processor time)."""


@pytest.mark.parametrize("text", SLOW_DEFENCES.values(), ids=SLOW_DEFENCES.keys())
def test_defences_are_checked_a_bounded_number_of_times(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ordering cannot read the clock, so it bounds its scans; the defences it does not
    check stay in, and every move it leaves out loses at once."""
    game = NetworkGame(rules="2015")  # nothing remembered from other tests
    state = game.decode(text)
    scans = []
    scan = network_threats._winning_steps

    def counted(*args: Any) -> list[int]:
        scans.append(args)
        return scan(*args)

    monkeypatch.setattr(network_threats, "_winning_steps", counted)
    network_threats._steps_memory.clear()
    searched = game.search_moves(state)
    assert len(scans) <= DEFENCE_CHECKS + 2, "the mover's wins, the threats, the checks"
    monkeypatch.undo()
    legal = game.legal_moves(state)
    left_out = set(legal) - set(searched)
    assert left_out, "still narrowed"
    assert all(loses_at_once(game, state, move) for move in left_out)


@GAMES
def test_the_only_defences_are_searched_and_found(game: NetworkGame) -> None:
    text, defences = STEP_DEFENCE[game.rules]
    state = game.decode(text)
    searched = {game.format_move(move) for move in game.search_moves(state)}
    assert defences <= searched
    move = Searcher(game).search(state, Limits(depth=2)).move
    assert game.format_move(move) in defences


@GAMES
def test_the_ai_takes_a_winning_step(game: NetworkGame) -> None:
    state = game.decode(STEP_WIN[game.rules])
    assert game.search_moves(state)[0] in wins(game, state)
    move = Searcher(game).search(state, Limits(depth=3)).move
    outcome = game.outcome(game.play(state, move))
    assert outcome is not None
    assert outcome.winner == game.to_move(state)


@GAMES
def test_remembered_threat_squares_match_a_fresh_count(game: NetworkGame) -> None:
    """Answers bounded by an earlier answer for the same chips equal fresh ones."""
    variant = game._variant
    for state in random_states(game, 150, seed=6, steps=False):
        for side in (0, 1):
            own, other = state.chips(side), state.chips(side ^ 1)
            for limit in (1, 2, 64):
                remembered = add_threats(variant, side, own, other, limit)
                open_squares = targets(variant, side, own, own | other)
                fresh = _threat_squares(variant, side, own, other, open_squares, limit)
                assert remembered == fresh


def sight_by_rays(own: int, occupied: int) -> tuple[int, int]:
    """Squares seeing one and two of ``own``'s chips, walking every chip's eight rays."""
    once = twice = 0
    for index in squares_of(own):
        sight = 0
        for _, ray in UP_RAYS[index]:
            seen = ray & occupied
            sight |= ray & ((seen & -seen) - 1) if seen else ray
        for _, ray in DOWN_RAYS[index]:
            seen = ray & occupied
            sight |= ray & ~((1 << seen.bit_length()) - 1) if seen else ray
        twice |= once & sight
        once |= sight
    return once, twice


def test_sight_by_whole_board_fills_equals_sight_along_every_ray() -> None:
    rng = random.Random(8)
    for _ in range(3000):
        squares = rng.sample(range(SQUARES), rng.randrange(1, 30))
        split = rng.randrange(len(squares) + 1)
        own = sum(1 << square for square in squares[:split])
        occupied = sum(1 << square for square in squares)
        assert sight_counts(own, occupied) == sight_by_rays(own, occupied)


@GAMES
def test_remembered_winning_steps_answer_every_limit_as_a_fresh_scan(game: NetworkGame) -> None:
    variant = game._variant
    several = 0
    for state in step_states(game, 60, seed=6):
        side = game.to_move(state)
        own, other = state.boards()
        every = _winning_steps(variant, side, own, other, 99)
        several += len(every) > 1
        for limit in (1, 2, 99, 1):
            assert winning_steps(variant, side, own, other, limit) == every[:limit]
    assert several
