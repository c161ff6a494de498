"""The search over every real game: exact values at low depth, wins taken, losses blocked."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

from gamut_engine import AnyGame, load_game
from gamut_engine.search import WIN, Limits, Searcher, minimax_values, search

# (game, options, depth checked against minimax, plies of random opening)
EXACT_CONFIGS: list[tuple[str, dict[str, Any], int, int]] = [
    ("network", {}, 2, 6),
    ("network", {"rules": "2015"}, 2, 4),
    ("connect5", {"size": 5}, 3, 6),
    ("connect5", {"size": 6}, 2, 8),
    ("connect5", {"size": 7}, 2, 10),
    ("loa", {"size": 5}, 3, 4),
    ("loa", {"size": 6}, 2, 6),
    ("loa", {"size": 8}, 2, 6),
    ("crusher", {"n": 3}, 3, 4),
    ("crusher", {"n": 4}, 2, 6),
]
GAME_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("network", {}),
    ("network", {"rules": "2015"}),
    ("connect5", {"size": 7}),
    ("loa", {"size": 6}),
    ("loa", {"size": 8}),
    ("crusher", {"n": 3}),
    ("crusher", {"n": 4}),
]


def config_id(name: str, options: dict[str, Any]) -> str:
    return "-".join([name, *(f"{k}={v}" for k, v in options.items())])


def playout(game: AnyGame, seed: int) -> list[Any]:
    """Every state of one random game."""
    rng = random.Random(seed)
    states = [game.initial_state()]
    while game.outcome(states[-1]) is None:
        states.append(game.play(states[-1], rng.choice(game.legal_moves(states[-1]))))
    return states


def winning_moves(game: AnyGame, state: Any) -> set[Any]:
    side = game.to_move(state)
    wins = set()
    for move in game.legal_moves(state):
        outcome = game.outcome(game.play(state, move))
        if outcome is not None and outcome.winner == side:
            wins.add(move)
    return wins


def can_win_at_once(game: AnyGame, state: Any) -> bool:
    side = game.to_move(state)
    for move in game.legal_moves(state):
        outcome = game.outcome(game.play(state, move))
        if outcome is not None and outcome.winner == side:
            return True
    return False


def safe_moves(game: AnyGame, state: Any) -> set[Any]:
    """Moves that neither lose at once nor leave the opponent a winning move."""
    side = game.to_move(state)
    safe = set()
    for move in game.legal_moves(state):
        child = game.play(state, move)
        outcome = game.outcome(child)
        if outcome is None:
            if not can_win_at_once(game, child):
                safe.add(move)
        elif outcome.winner in (None, side):
            safe.add(move)
    return safe


def win_positions(game: AnyGame, count: int) -> list[Any]:
    """Positions just before a random game was won by the side to move."""
    found = []
    for seed in range(200):
        states = playout(game, seed)
        winner = game.outcome(states[-1]).winner  # type: ignore[union-attr]
        if winner is not None and game.to_move(states[-2]) == winner:
            found.append(states[-2])
            if len(found) == count:
                break
    return found


def block_positions(game: AnyGame, count: int) -> list[Any]:
    """Positions without a win for the side to move where some moves, not all, stop a win."""
    found = []
    for seed in range(300):
        states = playout(game, seed)
        if len(states) < 3:
            continue
        state = states[-3]
        if can_win_at_once(game, state):
            continue
        safe = safe_moves(game, state)
        if safe and len(safe) < len(game.legal_moves(state)):
            found.append(state)
        if len(found) == count:
            break
    return found


@pytest.mark.parametrize(
    ("name", "options", "depth", "opening"),
    EXACT_CONFIGS,
    ids=[config_id(c[0], c[1]) for c in EXACT_CONFIGS],
)
def test_search_equals_minimax(
    name: str, options: dict[str, Any], depth: int, opening: int
) -> None:
    game = load_game(name, **options)
    rng = random.Random(11)
    state = game.initial_state()
    for _ in range(opening):
        state = game.play(state, rng.choice(game.legal_moves(state)))
    assert game.outcome(state) is None
    for d in range(1, depth + 1):
        result = search(game, state, Limits(depth=d))
        values = minimax_values(game, state, d)
        best = max(values.values())
        assert result.score == best
        assert values[result.move] == best
        assert result.move in game.legal_moves(state)


@pytest.fixture(
    params=GAME_CONFIGS, ids=[config_id(name, options) for name, options in GAME_CONFIGS]
)
def game(request: pytest.FixtureRequest) -> AnyGame:
    name, options = request.param
    return load_game(name, **options)


def test_takes_an_immediate_win(game: AnyGame) -> None:
    positions = win_positions(game, 3)
    assert positions
    for state in positions:
        for depth in (1, 2, 3):
            result = search(game, state, Limits(depth=depth))
            assert result.move in winning_moves(game, state)
            assert result.score == WIN - 1


def test_blocks_an_immediate_loss(game: AnyGame) -> None:
    positions = block_positions(game, 2)
    assert positions
    for state in positions:
        result = search(game, state, Limits(depth=2))
        assert result.move in safe_moves(game, state)


def test_plays_only_legal_moves_through_whole_games(game: AnyGame) -> None:
    """Two searching sides play a short game; every move they choose is legal."""
    searchers = [Searcher(game), Searcher(game, noise=50, seed=1)]
    state = game.initial_state()
    for _ in range(12):
        if game.outcome(state) is not None:
            break
        side = game.to_move(state)
        result = searchers[side].search(state, Limits(depth=2, nodes=3_000))
        assert result.move in game.legal_moves(state)
        state = game.play(state, result.move)


def test_statistics_and_trace_on_a_real_game(game: AnyGame) -> None:
    stream = io.StringIO()
    state = game.initial_state()
    result = search(game, state, Limits(depth=2), trace=stream, trace_lines=50)
    assert result.stats.max_depth == 2
    assert result.stats.nodes > len(game.search_moves(state))
    assert result.stats.evals_max + result.stats.evals_min > 0
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("depth 1: ")
    assert len(lines) <= 51
