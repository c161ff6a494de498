"""Players: the interface, random and AI players, the levels and the spec parser."""

from __future__ import annotations

import io
import itertools
from typing import Any

import pytest

from gamut_engine import AnyGame, load_game
from gamut_engine.players import (
    AIPlayer,
    Player,
    RandomPlayer,
    held_to_move_time,
    last_stats,
    parse_player,
)
from gamut_engine.search import (
    LEVELS,
    WIN,
    get_level,
    level_limits,
    level_noise,
    minimax,
    move_budget,
)
from gamut_engine.search.levels import FALLBACK_SPREAD, evaluation_spread
from tests.engine.toy_games import TakeAway, TicTacToe


class FirstMovePlayer:
    """A plug-in player as someone outside Gamut would write one."""

    def choose_move(self, game: AnyGame, state: Any) -> Any:
        return game.legal_moves(state)[0]


class NotAPlayer:
    """Has no choose_move."""


def play_out(game: AnyGame, players: tuple[Player, Player]) -> int | None:
    """Play a whole game and return the winner, checking every move is legal."""
    state = game.initial_state()
    while game.outcome(state) is None:
        move = players[game.to_move(state)].choose_move(game, state)
        assert move in game.legal_moves(state)
        state = game.play(state, move)
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome.winner


# --- the spec parser ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "kind", "level", "limits"),
    [
        ("ai", AIPlayer, 5, (None, None, None)),
        ("ai:7", AIPlayer, 7, (None, None, None)),
        ("ai:3,time=1.5", AIPlayer, 3, (None, 1.5, None)),
        ("ai:level=2", AIPlayer, 2, (None, None, None)),
        ("ai:depth=3", AIPlayer, None, (3, None, None)),
        ("ai:time=2", AIPlayer, None, (None, 2.0, None)),
        ("ai:nodes=5000", AIPlayer, None, (None, None, 5000)),
        ("ai:depth=4, time=0.5", AIPlayer, None, (4, 0.5, None)),
        ("ai:8,budget=0.5", AIPlayer, 8, (None, None, None)),
    ],
)
def test_ai_specs(
    spec: str, kind: type, level: int | None, limits: tuple[int | None, float | None, int | None]
) -> None:
    player = parse_player(spec)
    assert isinstance(player, kind)
    assert isinstance(player, AIPlayer)
    assert (player.level.number if player.level else None) == level
    assert (player.limits.depth, player.limits.time, player.limits.nodes) == limits
    again = parse_player(player.spec)
    assert isinstance(again, AIPlayer)
    assert again.spec == player.spec


@pytest.mark.parametrize(
    ("spec", "held"),
    [
        ("ai", "ai:5,time=0.5"),
        ("ai:8", "ai:8,time=0.5"),
        ("ai:level=3", "ai:3,time=0.5"),
        ("ai:8,budget=5", "ai:8,budget=5"),
        ("ai:5,time=2", "ai:5,time=2"),
        ("ai:depth=3", "ai:depth=3"),
        ("ai:nodes=500", "ai:nodes=500"),
        ("random:3", "random:3"),
    ],
)
def test_a_move_time_holds_an_ai_unless_its_spec_sets_its_own_search(spec: str, held: str) -> None:
    player = held_to_move_time(parse_player(spec), 0.5)
    assert getattr(player, "spec", None) == held
    with pytest.raises(ValueError, match="positive"):
        held_to_move_time(parse_player(spec), 0)


def test_random_specs() -> None:
    player = parse_player("random")
    assert isinstance(player, RandomPlayer)
    assert player.spec == "random"
    seeded = parse_player("random:7")
    assert isinstance(seeded, RandomPlayer)
    assert seeded.seed == 7
    assert seeded.spec == "random:7"


def test_module_class_specs() -> None:
    player = parse_player("tests.engine.test_players:FirstMovePlayer")
    assert isinstance(player, FirstMovePlayer)
    assert isinstance(player, Player)
    assert last_stats(player) is None


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ai:9", "levels go from 1 to 8"),
        ("ai:0", "levels go from 1 to 8"),
        ("ai:depth=x", "whole number"),
        ("ai:time=soon", "seconds"),
        ("ai:depth=0", "at least 1"),
        ("ai:speed=3", "unknown ai option"),
        ("ai:3,4", "name=value"),
        ("ai:5,depth=3", "not both"),
        ("ai:depth=3,budget=2", "give a level"),
        ("ai:4,budget=0", "positive"),
        ("random:x", "whole number"),
        ("human", "unknown player"),
        ("no_such_module_anywhere:Player", "cannot import"),
        ("tests.engine.test_players:Missing", "no class"),
        ("tests.engine.test_players:NotAPlayer", "choose_move"),
    ],
)
def test_bad_specs_say_why(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_player(spec)


# --- random and AI players ---------------------------------------------------------------------


def test_random_player_is_legal_and_reproducible() -> None:
    game = TicTacToe()
    first = [RandomPlayer(3).choose_move(game, game.initial_state()) for _ in range(3)]
    again = [RandomPlayer(3).choose_move(game, game.initial_state()) for _ in range(3)]
    assert first == again
    winner = play_out(game, (RandomPlayer(1), RandomPlayer(2)))
    assert winner in (0, 1, None)
    assert RandomPlayer().last_stats is None


@pytest.mark.parametrize("player", [RandomPlayer(1), AIPlayer(depth=2), AIPlayer(3)])
def test_players_refuse_a_finished_game(player: Player) -> None:
    game = TakeAway(1)
    over = game.play(game.initial_state(), 1)
    with pytest.raises(ValueError, match="over"):
        player.choose_move(game, over)


def test_ai_player_reports_the_last_search() -> None:
    game = TicTacToe()
    stream = io.StringIO()
    player = AIPlayer(depth=3, trace=stream, trace_lines=20)
    assert player.last_stats is None
    move = player.choose_move(game, game.initial_state())
    assert move == 4
    stats = last_stats(player)
    assert stats is not None
    assert stats.depth == 3
    assert player.last_result is not None
    assert player.last_result.move == move
    assert stream.getvalue().startswith("depth 1: ")
    assert str(player) == "AI (depth 3)"


def test_exact_depth_players_are_deterministic_and_exact() -> None:
    game = TakeAway(9)
    player = AIPlayer(depth=9)
    assert player.choose_move(game, game.initial_state()) == 1
    assert player.last_result is not None
    assert player.last_result.score == minimax(game, game.initial_state(), 9) == WIN - 5


def test_default_is_the_default_level() -> None:
    assert str(AIPlayer()) == "AI level 5"
    assert AIPlayer().spec == "ai:5"


# --- levels ------------------------------------------------------------------------------------


def test_levels_grow_stronger_step_by_step() -> None:
    assert [level.number for level in LEVELS] == list(range(1, 9))
    for weaker, stronger in itertools.pairwise(LEVELS):
        assert stronger.noise <= weaker.noise
        assert stronger.time_share >= weaker.time_share
        if weaker.depth is not None and stronger.depth is not None:
            assert stronger.depth >= weaker.depth
        assert (stronger.noise, -stronger.time_share, stronger.depth or 99) != (
            weaker.noise,
            -weaker.time_share,
            weaker.depth or 99,
        )
    assert LEVELS[0].depth == 1
    assert LEVELS[-1] == get_level(8)
    assert (LEVELS[-1].depth, LEVELS[-1].time_share, LEVELS[-1].noise) == (None, 1.0, 0.0)


@pytest.mark.parametrize(
    ("name", "options", "seconds"),
    [
        ("network", {}, 5.0),
        ("loa", {"size": 8}, 10.0),
        ("connect5", {"size": 15}, 45.0),
        ("connect5", {"size": 5}, 5.0),
        ("crusher", {"n": 3}, 5.0),
    ],
)
def test_move_budgets_follow_the_standard_limits(
    name: str, options: dict[str, Any], seconds: float
) -> None:
    game = load_game(name, **options)
    assert move_budget(game) == seconds
    assert level_limits(game, get_level(8)).time == seconds
    assert level_limits(game, get_level(8), max_time=2.0).time == 2.0
    assert level_limits(game, get_level(7), budget=2.0).time == 2.0 * get_level(7).time_share
    assert level_limits(game, get_level(1)).depth == 1


def test_noise_scales_with_the_evaluation() -> None:
    game = TicTacToe()
    state = game.initial_state()
    spread = evaluation_spread(game, state)
    assert spread > 0
    assert level_noise(game, state, get_level(1)) == round(get_level(1).noise * spread)
    assert level_noise(game, state, get_level(8)) == 0
    flat = TakeAway(1)
    assert evaluation_spread(flat, flat.initial_state()) == FALLBACK_SPREAD


@pytest.mark.parametrize("level", range(1, 9))
def test_every_level_takes_a_win(level: int) -> None:
    game = TakeAway(3)
    for seed in range(4):
        assert AIPlayer(level, seed=seed).choose_move(game, game.initial_state()) == 3


@pytest.mark.parametrize("level", range(2, 9))
def test_levels_from_two_block_an_immediate_loss(level: int) -> None:
    game = TicTacToe()
    state = game.initial_state()
    for cell in (0, 4, 1):  # X a3, O b2, X b3: X threatens c3
        state = game.play(state, cell)
    for seed in range(4):
        assert AIPlayer(level, seed=seed).choose_move(game, state) == 2


def test_level_one_plays_loosely() -> None:
    game = TicTacToe()
    moves = {AIPlayer(1, seed=seed).choose_move(game, game.initial_state()) for seed in range(12)}
    assert len(moves) > 2


def test_full_strength_beats_level_one_in_a_won_game() -> None:
    """Take-away from 21 is a first-player win; level 8 keeps it, level 1 cannot take it."""
    game = TakeAway(21)
    for seed in range(3):
        assert play_out(game, (AIPlayer(8, seed=seed), AIPlayer(1, seed=seed))) == 0
        assert play_out(game, (AIPlayer(1, seed=seed), AIPlayer(8, seed=seed))) == 1


@pytest.mark.parametrize(("name", "options"), [("connect5", {"size": 7}), ("crusher", {"n": 3})])
def test_levels_play_real_games_legally(name: str, options: dict[str, Any]) -> None:
    game = load_game(name, **options)
    state = game.initial_state()
    for level in (1, 3):
        player = AIPlayer(level, seed=level)
        move = player.choose_move(game, state)
        assert move in game.legal_moves(state)
        state = game.play(state, move)
