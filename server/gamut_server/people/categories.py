"""Rating categories: a person has one rating per game variant and speed.

A category is a game with the options that make it a different game (every declared
option but ``max_plies``: Connect Five's board size, Network's rules, Lines of Action's
board, Crusher's ``n``) and a speed decided by the time control, as lichess decides it:
the game's expected length is the initial time plus 40 increments (Fischer) or 40
moves' limits (a limit per move), and

| speed | expected length |
| --- | --- |
| bullet | under 3 minutes |
| blitz | 3 minutes to under 8 |
| rapid | 8 minutes to under 25 |
| classical | 25 minutes to under a day |
| correspondence | a day or more, or untimed |

A category's id is the game's name, each variant option's value and the speed:
``connect5-15.blitz``, ``network-2015.rapid``. A rating is *provisional* while its
uncertainty is above :data:`PROVISIONAL_SIGMA`, about the first dozen games.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Final, Literal, TypeAlias

from gamut_engine import GAMES, load_game
from gamut_engine.declaration import DEFAULT_MAX_PLIES
from gamut_protocol import Fischer, PerMove, TimeControl

Speed: TypeAlias = Literal["bullet", "blitz", "rapid", "classical", "correspondence"]
"""How fast a game is played, from its time control."""

SPEEDS: Final[tuple[Speed, ...]] = ("bullet", "blitz", "rapid", "classical", "correspondence")
"""Every speed, fastest first."""

SPEED_LIMITS_S: Final[tuple[tuple[Speed, float], ...]] = (
    ("bullet", 180),
    ("blitz", 480),
    ("rapid", 1_500),
    ("classical", 86_400),
)
"""Each timed speed and the expected length (seconds) a game of it stays under."""

MOVES_EXPECTED: Final = 40
"""Moves per side a game is expected to last, to weigh increments and per-move limits."""

PROVISIONAL_SIGMA: Final = 230.0
"""A rating whose uncertainty is above this is provisional (shown with a ``?``): a new
player starts at 500, and about twelve games bring it under."""

NOT_A_VARIANT: Final = frozenset({"max_plies"})
"""Options that do not make another game for rating."""

OptionValues: TypeAlias = Mapping[str, bool | int | str]


class UnratedGameError(ValueError):
    """A game that cannot be rated; the message says why, for people."""


@dataclass(frozen=True, slots=True)
class Category:
    """One rating category: a game variant at a speed."""

    id: str
    """The category's id, such as ``connect5-15.blitz``."""
    game: str
    """The game's registry name."""
    variant: tuple[tuple[str, bool | int | str], ...]
    """The options that make the variant, in the game's declared order."""
    speed: Speed
    """The speed."""
    title: str
    """The category for people: ``Connect Five 15×15, blitz``."""


def expected_seconds(time_control: TimeControl) -> float | None:
    """A game's expected length in seconds under ``time_control``; ``None`` when untimed."""
    if isinstance(time_control, Fischer):
        return (time_control.initial_ms + MOVES_EXPECTED * time_control.increment_ms) / 1000
    if isinstance(time_control, PerMove):
        return MOVES_EXPECTED * time_control.move_ms / 1000
    return None


def speed_of(time_control: TimeControl) -> Speed:
    """The speed of games played under ``time_control``."""
    seconds = expected_seconds(time_control)
    if seconds is None:
        return "correspondence"
    for speed, limit in SPEED_LIMITS_S:
        if seconds < limit:
            return speed
    return "correspondence"


def category_of(game: str, options: OptionValues, time_control: TimeControl) -> Category:
    """The category of ``game`` played with ``options`` (the defaults filled in for those
    left out) under ``time_control``. Raises :class:`UnratedGameError` for a game that
    is not rated as it is set up (another move cap than the standard one)."""
    if game not in GAMES:
        raise UnratedGameError(f"this server does not host {game!r}")
    if options.get("max_plies", DEFAULT_MAX_PLIES) != DEFAULT_MAX_PLIES:
        raise UnratedGameError(
            f"rated games end drawn after the standard {DEFAULT_MAX_PLIES} plies: "
            "leave max_plies out of a rated seek"
        )
    variant = tuple(
        (spec.name, options.get(spec.name, spec.default))
        for spec in GAMES[game].declared_options()
        if spec.name not in NOT_A_VARIANT
    )
    return _category(game, variant, speed_of(time_control))


@cache
def _category(
    game: str, variant: tuple[tuple[str, bool | int | str], ...], speed: Speed
) -> Category:
    """The category of one variant at one speed (made once)."""
    suffix = "".join(f"-{_option_text(value)}" for _, value in variant)
    title = load_game(game, **dict(variant)).title
    return Category(f"{game}{suffix}.{speed}", game, variant, speed, f"{title}, {speed}")


def _option_text(value: bool | int | str) -> str:
    """An option's value as it appears in a category id."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def describe_category(category_id: str) -> str:
    """A category's title for people, from its id; the id itself if no hosted game has it."""
    prefix, _, speed = category_id.rpartition(".")
    game, *values = prefix.split("-")
    if game not in GAMES or speed not in SPEEDS:
        return category_id
    specs = [spec for spec in GAMES[game].declared_options() if spec.name not in NOT_A_VARIANT]
    if len(specs) != len(values):
        return category_id
    try:
        variant = tuple(
            (spec.name, spec.read(value)) for spec, value in zip(specs, values, strict=True)
        )
        return _category(game, variant, speed).title
    except ValueError:
        return category_id


def is_provisional(sigma: float) -> bool:
    """Whether a rating with uncertainty ``sigma`` is still provisional."""
    return sigma > PROVISIONAL_SIGMA


__all__ = [
    "PROVISIONAL_SIGMA",
    "SPEEDS",
    "Category",
    "Speed",
    "UnratedGameError",
    "category_of",
    "describe_category",
    "expected_seconds",
    "is_provisional",
    "speed_of",
]
