"""Warming a search up: set-up paid before a game's first timed move, once per game object."""

from __future__ import annotations

import time
from typing import Any

from gamut_engine import load_game
from gamut_engine.players import AIPlayer
from gamut_engine.search import Searcher
from gamut_engine.search.warm import WARM_PLIES, warm_up
from tests.engine.toy_games import TicTacToe


class CountedTicTacToe(TicTacToe):
    """Tic-tac-toe that counts the positions it evaluates."""

    def __init__(self) -> None:
        self.evaluated = 0

    def evaluate(self, state: Any) -> int:
        self.evaluated += 1
        return super().evaluate(state)


def test_warming_searches_then_leaves_the_searcher_as_it_was() -> None:
    game = CountedTicTacToe()
    searcher = Searcher(game)
    warm_up(searcher)
    assert game.evaluated > 0
    assert searcher.table == {}
    assert searcher.evaluations == {}
    assert searcher.clock is time.perf_counter


def test_a_game_is_warmed_once_per_process() -> None:
    game = CountedTicTacToe()
    warm_up(Searcher(game))
    evaluated = game.evaluated
    warm_up(Searcher(game))
    assert game.evaluated == evaluated


def test_warming_asks_connect_five_s_threat_search() -> None:
    """The timed search's threat phase runs too: from the fourth stone on, the defences."""
    game = load_game("connect5", size=9)
    asked: list[int] = []
    defences = game.defences

    def counted(state: Any, moves: list[Any], timer: Any) -> list[Any]:
        asked.append(game.ply(state))
        return defences(state, moves, timer)

    game.defences = counted  # type: ignore[method-assign]
    warm_up(Searcher(game))
    assert asked == list(range(WARM_PLIES))


def test_an_ai_player_warms_its_searcher_when_the_game_starts() -> None:
    """A match calls ``start_game`` before it times the first move."""
    game = CountedTicTacToe()
    player = AIPlayer(depth=1)
    player.start_game(game, game.initial_state(), ())
    assert game.evaluated > 0
    searcher = player._searcher
    player.choose_move(game, game.initial_state())
    assert player._searcher is searcher  # the warmed searcher plays the game
