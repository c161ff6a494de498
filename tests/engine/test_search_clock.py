"""The AI answers within its time: every loop of a move looks at the clock.

No test here measures real time. A fake clock stands still for a number of readings,
then jumps far past any deadline; the move must then come back within a few more
readings, whatever the game and wherever the jump lands (the threat solver, measuring a
low level's noise, the first iterations or deep in the tree), having evaluated nothing
after it. A clock that counts the evaluations between two of its readings shows that
no loop evaluates more than one position without looking at the time.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamut_engine import AnyGame, load_game
from gamut_engine.search import Limits, Searcher, get_level, nodes, search_level
from gamut_engine.search.alphabeta import REPLY_MARGIN, reply_margin
from gamut_engine.search.levels import evaluation_spread
from gamut_engine.search.result import LEAST_TIME
from tests.engine.toy_games import TakeAway

LATE_READS = 6
"""Readings a move may take after the deadline passed: the level's look at the time
left, the search's start, the threat solver's look at each of its two deadlines, the
check that stops the search, and the statistics' elapsed time."""

VARIANTS = [
    ("network", {}),
    ("connect5", {"size": 15}),
    ("loa", {"size": 8}),
    ("crusher", {"n": 4}),
]


class JumpingClock:
    """Stands at 0 for ``still`` readings, then jumps a day ahead at every reading (so a
    deadline set after the first jump passes too); counts the readings."""

    def __init__(self, still: int) -> None:
        self.still = still
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return 86_400.0 * self.late

    @property
    def late(self) -> int:
        """Readings after the jump."""
        return max(0, self.reads - self.still)


def count_late_evaluations(game: AnyGame, clock: JumpingClock) -> list[int]:
    """Make ``game`` count its evaluations after the clock's jump in the list returned."""
    late = [0]
    evaluate = game.evaluate

    def counted(state: Any) -> int:
        if clock.late:
            late[0] += 1
        return evaluate(state)

    game.evaluate = counted  # type: ignore[method-assign]
    return late


def midgame(game: AnyGame, plies: int = 8) -> Any:
    """A running position after ``plies`` seeded random moves."""
    rng = random.Random(7)
    state = game.initial_state()
    for _ in range(plies):
        state = game.play(state, rng.choice(game.legal_moves(state)))
    assert game.outcome(state) is None
    return state


@pytest.mark.parametrize(("name", "options"), VARIANTS)
@pytest.mark.parametrize("still", [1, 2, 3, 5, 40, 400])
def test_a_timed_search_answers_within_a_few_readings_of_the_deadline(
    name: str, options: dict[str, Any], still: int
) -> None:
    game = load_game(name, **options)
    state = midgame(game)
    clock = JumpingClock(still)
    late = count_late_evaluations(game, clock)
    result = Searcher(game, clock=clock).search(state, Limits(time=10.0))
    assert result.move in game.legal_moves(state)
    assert clock.late <= LATE_READS
    assert late == [0]


@pytest.mark.parametrize(("name", "options"), VARIANTS)
@pytest.mark.parametrize("level", [1, 2, 8])
@pytest.mark.parametrize("still", [1, 3, 10])
def test_a_level_answers_within_a_few_readings_of_the_deadline(
    name: str, options: dict[str, Any], level: int, still: int
) -> None:
    game = load_game(name, **options)
    state = midgame(game)
    clock = JumpingClock(still)
    late = count_late_evaluations(game, clock)
    searcher = Searcher(game, clock=clock)
    result = search_level(searcher, state, get_level(level), budget=100.0)
    assert result.move in game.legal_moves(state)
    assert clock.late <= LATE_READS
    assert late == [0]


class CountingGame(TakeAway):
    """Take-away that counts its evaluations."""

    def __init__(self, stones: int) -> None:
        super().__init__(stones)
        self.evaluated = 0

    def evaluate(self, state: tuple[int, int]) -> int:
        self.evaluated += 1
        return super().evaluate(state)


def test_the_evaluation_spread_stops_valuing_moves_at_its_deadline() -> None:
    game = CountingGame(60)
    clock = JumpingClock(2)
    evaluation_spread(game, game.initial_state(), (clock, 1.0))
    assert game.evaluated == 2
    assert clock.late == 1


class SteppingClock:
    """Moves on ``tick`` seconds at every reading."""

    def __init__(self, tick: float) -> None:
        self.tick = tick
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


def test_a_levels_time_counts_what_came_before_the_search() -> None:
    game = TakeAway(60)
    searcher = Searcher(game, clock=SteppingClock(0.001))
    asked: list[Limits] = []
    search = searcher.search

    def recorded(state: Any, limits: Limits) -> Any:
        asked.append(limits)
        return search(state, limits)

    searcher.search = recorded  # type: ignore[method-assign]
    level = get_level(3)
    search_level(searcher, game.initial_state(), level, budget=24.0, spent=0.25)
    # The level has 1 s; a quarter was gone before the call, and the clock moved on
    # once more before the search began.
    assert asked[0].time == pytest.approx(0.75 - 0.001)
    assert asked[0].depth == level.depth


def test_a_level_whose_time_is_gone_still_answers() -> None:
    game = TakeAway(60)
    searcher = Searcher(game, clock=SteppingClock(0.001))
    result = search_level(searcher, game.initial_state(), get_level(8), budget=1.0, spent=5.0)
    assert result.move in game.legal_moves(game.initial_state())
    assert Limits(time=1.0).less(5.0).time == LEAST_TIME


def test_a_timed_search_keeps_a_margin_for_its_answer() -> None:
    assert reply_margin(0.1) == pytest.approx(0.01)
    assert reply_margin(60.0) == REPLY_MARGIN
    game = TakeAway(60)
    clock = SteppingClock(0.001)
    Searcher(game, clock=clock).search(game.initial_state(), Limits(time=0.1))
    # It stops at the first reading past 0.1 s less the margin, then notes its time.
    assert clock.now <= 0.1 - reply_margin(0.1) + 0.003


class WatchingClock(SteppingClock):
    """A stepping clock that notes the most evaluations made between two readings."""

    def __init__(self, tick: float) -> None:
        super().__init__(tick)
        self.since = 0
        self.most = 0

    def __call__(self) -> float:
        self.most = max(self.most, self.since)
        self.since = 0
        return super().__call__()

    def watch(self, game: AnyGame) -> None:
        """Count ``game``'s evaluations between readings."""
        evaluate = game.evaluate

        def counted(state: Any) -> int:
            self.since += 1
            return evaluate(state)

        game.evaluate = counted  # type: ignore[method-assign]


@pytest.mark.parametrize(("name", "options"), VARIANTS)
@pytest.mark.parametrize("level", [1, 2, 8])
def test_a_level_evaluates_at_most_one_position_between_two_looks_at_the_clock(
    name: str, options: dict[str, Any], level: int
) -> None:
    game = load_game(name, **options)
    state = midgame(game)
    clock = WatchingClock(tick=0.05)
    clock.watch(game)
    search_level(Searcher(game, clock=clock), state, get_level(level), budget=100.0)
    clock()
    assert clock.most <= 1


@pytest.mark.parametrize(("seconds", "trims"), [(0.4, False), (100.0, True)])
def test_a_full_table_is_trimmed_mid_search_only_with_time_to_spare(
    monkeypatch: pytest.MonkeyPatch, seconds: float, trims: bool
) -> None:
    trimmed: list[int] = []
    monkeypatch.setattr(nodes, "trim", lambda table, size: trimmed.append(len(table)))
    game = TakeAway(60)
    searcher = Searcher(game, table_size=8, clock=SteppingClock(0.0001))
    searcher.search(game.initial_state(), Limits(time=seconds, depth=8))
    assert bool(trimmed) == trims
