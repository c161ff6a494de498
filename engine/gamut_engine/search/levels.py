"""The AI's strength levels for people, 1 (a beginner can beat it) to 8 (full strength).

A level caps the search depth, takes a share of the game's time budget per move and
adds noise to the evaluation. Levels 1-4 search a fixed depth within a 24th of the
budget; level 2 is level 3 with heavy noise. Level 5 is the first timed level: the same
24th, but no depth cap, so it deepens until the time is up and searches as the timed
search does (late moves reduced, forced replies extended, the game's threat solver
asked first). Levels 6, 7 and 8 are timed too, with about three times as much time
each (an eighth, a third, all of it). A timed search uses all its time, so more time
never means less depth.

Noise is measured in units of the position's own evaluation spread (how much the static
values of the moves at the root differ), so it means the same in every game whatever the
scale of its evaluation function. Win and loss scores are never noisy: every level takes
a win it sees and every level from 2 up sees the reply that would beat it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamut_engine.core import Game, Timer
from gamut_engine.search.alphabeta import Searcher
from gamut_engine.search.result import Limits, Result
from gamut_engine.search.scores import clamp_evaluation

FALLBACK_SPREAD = 100
"""Evaluation spread assumed where the evaluation cannot tell the root moves apart."""

SPREAD_SHARE = 0.25
"""Share of a noisy level's time that measuring the evaluation spread may take; the
moves left unvalued when it is up do not count (a large board has hundreds)."""


@dataclass(frozen=True, slots=True)
class Level:
    """How one level searches."""

    number: int
    """1 to 8."""
    depth: int | None
    """Deepest iteration, or ``None`` to deepen until the time is up."""
    time_share: float
    """Share of the game's move budget the level may spend."""
    noise: float
    """Evaluation noise amplitude, in units of the root's evaluation spread."""
    description: str
    """What playing it feels like."""


LEVELS: tuple[Level, ...] = (
    Level(1, 1, 1 / 24, 3.0, "looks at its own moves only, nearly at random, but takes a win"),
    Level(2, 2, 1 / 24, 1.0, "sees your reply, so stops an immediate win; careless otherwise"),
    Level(3, 2, 1 / 24, 0.0, "two plies, its best within them"),
    Level(4, 3, 1 / 24, 0.0, "three plies, its best within them"),
    Level(5, None, 1 / 24, 0.0, "as deep as a 24th of the full time allows, threats first"),
    Level(6, None, 1 / 8, 0.0, "as deep as an eighth of the full time allows"),
    Level(7, None, 1 / 3, 0.0, "as deep as a third of the full time allows"),
    Level(8, None, 1.0, 0.0, "full strength: as deep as the whole time budget allows"),
)
"""Levels 1 to 8, weakest first."""

DEFAULT_LEVEL = 5
"""The level a player gets when none is named."""


def get_level(number: int) -> Level:
    """Level ``number``; ``ValueError`` outside 1-8."""
    if not 1 <= number <= len(LEVELS):
        raise ValueError(f"levels go from 1 to {len(LEVELS)}, not {number}")
    return LEVELS[number - 1]


def move_budget(game: Game[Any, Any]) -> float:
    """Seconds a move at full strength, as the game declares them."""
    return game.move_budget()


def level_limits(
    game: Game[Any, Any],
    level: Level,
    max_time: float | None = None,
    budget: float | None = None,
) -> Limits:
    """The limits of ``level`` in ``game``.

    ``budget`` replaces the game's full-strength seconds a move (every level scales
    with it); ``max_time`` caps the level's own seconds.
    """
    seconds = (move_budget(game) if budget is None else budget) * level.time_share
    if max_time is not None:
        seconds = min(seconds, max_time)
    return Limits(depth=level.depth, time=seconds)


def evaluation_spread(game: Game[Any, Any], state: Any, timer: Timer | None = None) -> int:
    """Mean absolute deviation of the static values of the root's moves, for the mover.

    :data:`FALLBACK_SPREAD` where they do not differ (or all end the game). With
    ``timer`` (a clock and a deadline on it), only the moves valued before the deadline
    count.
    """
    values = []
    state = game.search_state(state)
    for move in game.search_moves(state):
        if timer is not None and timer[0]() >= timer[1]:
            break
        child = game.play(state, move)
        if game.outcome(child) is None:
            values.append(-clamp_evaluation(game.evaluate(child)))
    if len(values) < 2:
        return FALLBACK_SPREAD
    mean = sum(values) / len(values)
    spread = round(sum(abs(value - mean) for value in values) / len(values))
    return spread or FALLBACK_SPREAD


def level_noise(game: Game[Any, Any], state: Any, level: Level, timer: Timer | None = None) -> int:
    """The noise amplitude ``level`` searches ``state`` with (0 for the clean levels).

    ``timer`` bounds the time spent measuring it (see :func:`evaluation_spread`).
    """
    if not level.noise:
        return 0
    return max(1, round(level.noise * evaluation_spread(game, state, timer)))


def search_level(
    searcher: Searcher[Any, Any],
    state: Any,
    level: Level,
    *,
    max_time: float | None = None,
    budget: float | None = None,
    spent: float = 0.0,
) -> Result[Any]:
    """The move ``level`` plays from ``state``, found by ``searcher``.

    The level's time (see :func:`level_limits` for ``max_time`` and ``budget``) counts
    from ``spent`` seconds before the call, and covers everything: measuring the noise
    (at most :data:`SPREAD_SHARE` of it), the search and its answer.
    """
    clock = searcher.clock
    started = clock() - spent
    limits = level_limits(searcher.game, level, max_time, budget)
    timer = None if limits.time is None else (clock, started + limits.time * SPREAD_SHARE)
    searcher.noise = level_noise(searcher.game, state, level, timer)
    return searcher.search(state, limits.less(clock() - started))
