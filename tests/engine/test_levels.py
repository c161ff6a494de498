"""The level table's meaning, and what each level's search uses.

Levels 1-4 search a fixed depth; level 5 is the first timed level, with the same share
of the budget as level 4 and everything the timed search does. No test here reads the
real clock: the searches run on a clock that moves a microsecond a reading.
"""

from __future__ import annotations

from typing import Any

import pytest

from gamut_engine import load_game
from gamut_engine.core import Timer
from gamut_engine.search import Limits, Searcher, alphabeta, get_level, level_limits, search_level
from gamut_engine.search.nodes import NodeSearch
from tests.engine.toy_games import TicTacToe, TttState

TICK = 1e-6
"""Seconds the test clock moves at every reading."""


class TickingClock:
    """A clock that moves :data:`TICK` at every reading, whatever the real time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += TICK
        return self.now


class ThreatCounting(TicTacToe):
    """Tic-tac-toe whose (empty) threat solver counts the times it is asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def forced_win(self, state: TttState, timer: Timer) -> tuple[int, int] | None:
        self.asked.append("win")
        return None

    def defences(self, state: TttState, moves: list[int], timer: Timer) -> list[int]:
        self.asked.append("defences")
        return moves


def test_levels_one_to_four_keep_their_fixed_depths() -> None:
    for number, depth in zip(range(1, 5), (1, 2, 2, 3), strict=True):
        assert get_level(number).depth == depth
        assert get_level(number).time_share == 1 / 24


def test_level_five_is_the_first_timed_level() -> None:
    five = get_level(5)
    assert (five.depth, five.time_share, five.noise) == (None, 1 / 24, 0.0)
    assert get_level(6).time_share == 3 * five.time_share
    assert all(get_level(number).depth is None for number in range(5, 9))


@pytest.mark.parametrize(("name", "options"), [("network", {}), ("loa", {"size": 8})])
def test_level_five_has_level_fours_time_without_its_depth(
    name: str, options: dict[str, Any]
) -> None:
    game = load_game(name, **options)
    four, five = level_limits(game, get_level(4)), level_limits(game, get_level(5))
    assert five == Limits(depth=None, time=four.time)
    limits = level_limits(game, get_level(5), budget=5.0)
    assert limits.depth is None
    assert limits.time == pytest.approx(5.0 / 24)


def searched(level: int, game: TicTacToe, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Play ``level``'s first move of ``game``; whether each node search was exact (exact
    searches neither reduce late moves nor extend forced replies)."""
    exact: list[bool] = []

    class Recording(NodeSearch[Any, Any]):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            exact.append(kwargs["exact"])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(alphabeta, "NodeSearch", Recording)
    searcher = Searcher(game, clock=TickingClock())
    search_level(searcher, game.initial_state(), get_level(level), budget=24.0)
    return exact


def test_level_five_searches_as_the_timed_levels_do(monkeypatch: pytest.MonkeyPatch) -> None:
    game = ThreatCounting()
    assert searched(5, game, monkeypatch) == [False]
    assert game.asked == ["win", "defences"]


@pytest.mark.parametrize("level", [3, 4])
def test_fixed_depth_levels_search_exactly_without_threats(
    level: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = ThreatCounting()
    assert searched(level, game, monkeypatch) == [True]
    assert game.asked == []


def test_level_five_deepens_past_level_fours_depth() -> None:
    """With time to spare (by the test clock) level 5 solves tic-tac-toe; level 4 stops at 3."""
    game = TicTacToe()
    results = {}
    for level in (4, 5):
        searcher = Searcher(game, clock=TickingClock())
        results[level] = search_level(searcher, game.initial_state(), get_level(level), budget=24)
    assert results[4].depth == 3
    assert results[5].depth > 4
    assert results[5].score == 0
