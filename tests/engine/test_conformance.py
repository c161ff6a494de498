"""One conformance suite, run over every registered game and variant: the contract holds.

The variants come from the games' declarations: each option at each of its choices, or
at its minimum, default and maximum, the other options at their defaults. A game
registered in the ``gamut.games`` group is covered without being named here.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from gamut_engine import GAMES, AnyGame, IllegalMoveError, OptionSpec, OptionValue, load_game

PLAYOUTS = 6


def option_values(spec: OptionSpec) -> list[OptionValue]:
    """The values of an option the suite tries: its choices, or its range's ends and default."""
    if spec.choices:
        return list(spec.choices)
    ends = [value for value in (spec.minimum, spec.default, spec.maximum) if value is not None]
    return list(dict.fromkeys(ends))


def registry_configs() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game with each declared option varied alone (``max_plies`` aside)."""
    configs: list[tuple[str, dict[str, Any]]] = []
    for name, game_class in GAMES.items():
        variants: list[dict[str, Any]] = [{}] + [
            {spec.name: value}
            for spec in game_class.option_specs
            for value in option_values(spec)
            if value != spec.default
        ]
        configs += [(name, options) for options in variants]
    return configs


CONFIGS = registry_configs()


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    """A readable test id such as ``loa-size=8``."""
    name, options = config
    return "-".join([name, *(f"{k}={v}" for k, v in options.items())])


@pytest.fixture(params=CONFIGS, ids=[config_id(c) for c in CONFIGS])
def game(request: pytest.FixtureRequest) -> AnyGame:
    name, options = request.param
    return load_game(name, **options)


def random_playout(game: AnyGame, seed: int) -> list[Any]:
    """Every state of one random game, from the start to its end."""
    rng = random.Random(seed)
    states = [game.initial_state()]
    while game.outcome(states[-1]) is None:
        moves = game.legal_moves(states[-1])
        states.append(game.play(states[-1], rng.choice(moves)))
    return states


def test_descriptive_attributes(game: AnyGame) -> None:
    assert game.title
    assert len(game.sides) == 2
    assert game.sides[0] != game.sides[1]
    cells = game.geometry.cells
    assert len(cells) == len(set(cells))
    for area in game.geometry.areas.values():
        assert area <= set(cells)
    assert load_game(game.name, **game.options).title == game.title


def test_declaration_matches_the_game(game: AnyGame) -> None:
    specs = game.declared_options()
    assert [spec.name for spec in specs] == list(game.options)
    defaults = load_game(game.name)
    assert dict(defaults.options) == {spec.name: spec.default for spec in specs}
    for spec in specs:
        spec.check(game.options[spec.name])
    assert game.notation
    assert game.move_budget() > 0
    for sentence in game.endings.values():
        assert sentence.format(winner=game.sides[0], loser=game.sides[1])


def test_start_position(game: AnyGame) -> None:
    state = game.initial_state()
    assert game.to_move(state) == 0
    assert game.ply(state) == 0
    assert game.outcome(state) is None
    assert game.legal_moves(state)
    assert game.initial_state() == state
    assert hash(game.initial_state()) == hash(state)


@pytest.mark.parametrize("seed", range(PLAYOUTS))
def test_random_playouts_end_with_an_outcome(game: AnyGame, seed: int) -> None:
    states = random_playout(game, seed)
    final = states[-1]
    outcome = game.outcome(final)
    assert outcome is not None
    assert outcome.winner in (None, 0, 1)
    assert outcome.reason
    assert set(outcome.line) <= set(game.geometry.cells)
    assert game.legal_moves(final) == []
    for ply, state in enumerate(states):
        assert game.ply(state) == ply


@pytest.mark.parametrize("seed", range(PLAYOUTS))
def test_every_legal_move_applies_and_round_trips(game: AnyGame, seed: int) -> None:
    rng = random.Random(1000 + seed)
    for state in random_playout(game, seed)[:-1]:
        before = (game.encode(state), game.key(state), hash(state))
        moves = game.legal_moves(state)
        assert len(moves) == len(set(moves)), "a move is listed twice"
        for move in rng.sample(moves, min(len(moves), 8)):
            text = game.format_move(move)
            assert game.parse_move(state, text) == move
            assert game.apply(state, move) == game.play(state, move)
            assert set(game.move_cells(move)) <= set(game.geometry.cells)
        assert (game.encode(state), game.key(state), hash(state)) == before


@pytest.mark.parametrize("seed", range(PLAYOUTS))
def test_encode_decode_round_trips(game: AnyGame, seed: int) -> None:
    for state in random_playout(game, seed):
        text = game.encode(state)
        assert "\n" not in text
        copy = game.decode(text)
        assert game.encode(copy) == text
        assert game.key(copy) == game.key(state)
        assert game.to_move(copy) == game.to_move(state)
        assert game.occupancy(copy) == game.occupancy(state)
        assert len(game.occupancy(state)) == len(game.geometry.cells)
        assert game.render(state)


@pytest.mark.parametrize("seed", range(PLAYOUTS))
def test_moves_legal_elsewhere_are_refused_with_a_reason(game: AnyGame, seed: int) -> None:
    states = random_playout(game, seed)
    refused = 0
    for earlier, state in itertools.pairwise(states):
        legal = set(game.legal_moves(state))
        for move in game.legal_moves(earlier):
            if move in legal:
                continue
            with pytest.raises(IllegalMoveError) as caught:
                game.check_move(state, move)
            assert caught.value.reason
            assert caught.value.message
            refused += 1
    assert refused > 0


@pytest.mark.parametrize("seed", range(PLAYOUTS))
def test_keys_follow_positions(game: AnyGame, seed: int) -> None:
    """Equal positions share a key; a key does not depend on how a state was reached."""
    for state in random_playout(game, seed):
        assert game.key(game.decode(game.encode(state))) == game.key(state)
        assert 0 <= game.key(state) < 2**64
