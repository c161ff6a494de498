"""The new-game form's values, and the ``seek`` message they make.

The form offers the games the server lists, each game's options as the server
describes them, a few time controls, and the opponent: anyone, a named player, or
the server's AI at a level. :func:`build_seek` checks the values and writes the
message; its :class:`FormError` says in a sentence what to fix.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from pydantic import ValidationError

from gamut_engine import load_game
from gamut_protocol import (
    AiOpponent,
    AnyOpponent,
    Fischer,
    GameInfo,
    NamedOpponent,
    Opponent,
    OptionInfo,
    PerMove,
    Seek,
    Side,
    TimeControl,
    Untimed,
)
from gamut_protocol.common import (
    MAX_AI_LEVEL,
    MAX_NAME_LENGTH,
    NAME_PATTERN,
    PATTERN_HINTS,
    OptionValue,
)

OpponentKind = Literal["anyone", "player", "ai"]
"""Whom the game is against."""

BOARD_TIME: Final = "board"
"""The single-move programs' time preset: N/5 seconds a move on a board of N cells."""

TIME_PRESETS: Final[dict[str, tuple[str, TimeControl | None]]] = {
    "untimed": ("untimed", Untimed()),
    "5s": ("5 s a move", PerMove(move_ms=5_000)),
    "10s": ("10 s a move", PerMove(move_ms=10_000)),
    BOARD_TIME: ("N/5 s a move (N cells)", None),
    "3+2": ("3 min + 2 s", Fischer(initial_ms=180_000, increment_ms=2_000)),
    "10+5": ("10 min + 5 s", Fischer(initial_ms=600_000, increment_ms=5_000)),
}
"""The time controls offered, by key: a label and the control (computed for ``board``)."""


class FormError(ValueError):
    """A value of the form cannot make a seek; the message says which and why."""


@dataclass(frozen=True)
class SeekForm:
    """The values of the new-game form, as typed."""

    game: str
    """The game's registry name."""
    options: Mapping[str, str] = field(default_factory=dict)
    """Each option's value as text; an empty text takes the default."""
    time: str = "untimed"
    """A key of :data:`TIME_PRESETS`."""
    opponent: OpponentKind = "anyone"
    """Whom the game is against."""
    player: str = ""
    """The challenged player, when :attr:`opponent` is ``player``."""
    level: int = 3
    """The AI's level, when :attr:`opponent` is ``ai``."""
    side: Side | None = None
    """The side wanted; ``None`` for either."""
    rated: bool = False
    """Whether the game counts for ratings."""


def build_seek(form: SeekForm, info: GameInfo | None) -> Seek:
    """The ``seek`` the form asks for; :class:`FormError` when a value is wrong."""
    options = read_options(form.options, info.options if info is not None else ())
    control = time_control(form.time, form.game, options)
    try:
        return Seek(
            game=form.game,
            options=options,
            time_control=control,
            opponent=_opponent(form),
            side=form.side,
            rated=form.rated,
        )
    except ValidationError as error:
        raise FormError(_first_problem(error)) from None


def _first_problem(error: ValidationError) -> str:
    """The first problem pydantic found, in a sentence."""
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"])
    return f"{where}: {problem['msg']}" if where else str(problem["msg"])


def read_options(texts: Mapping[str, str], infos: tuple[OptionInfo, ...]) -> dict[str, OptionValue]:
    """The options given (empty texts left out), each read as its default's type."""
    by_name = {info.name: info for info in infos}
    options: dict[str, OptionValue] = {}
    for name, text in texts.items():
        if text.strip() and name in by_name:
            options[name] = option_value(by_name[name], text.strip())
    return options


def option_value(info: OptionInfo, text: str) -> OptionValue:
    """``text`` read as a value of ``info``, checked against its choices and range."""
    value: OptionValue
    if isinstance(info.default, bool):
        value = text.lower() in ("1", "yes", "true", "on")
    elif isinstance(info.default, int):
        try:
            value = int(text)
        except ValueError:
            raise FormError(f"{info.name} is a whole number, not {text!r}") from None
        _check_range(info, value)
    else:
        value = text
    if info.choices and value not in info.choices:
        allowed = ", ".join(str(choice) for choice in info.choices)
        raise FormError(f"{info.name} is one of {allowed}, not {text!r}")
    return value


def _check_range(info: OptionInfo, value: int) -> None:
    """Raise :class:`FormError` if ``value`` is outside the option's range."""
    if info.minimum is not None and value < info.minimum:
        raise FormError(f"{info.name} is at least {info.minimum}")
    if info.maximum is not None and value > info.maximum:
        raise FormError(f"{info.name} is at most {info.maximum}")


def time_control(key: str, game: str, options: Mapping[str, OptionValue]) -> TimeControl:
    """The time control of preset ``key`` for ``game`` with ``options``."""
    try:
        control = TIME_PRESETS[key][1]
    except KeyError:
        raise FormError(f"unknown time control {key!r}") from None
    if control is not None:
        return control
    cells = board_cells(game, options)
    if cells is None:
        raise FormError(f"this client cannot count the cells of {game}: pick another time")
    return PerMove.for_board(cells)


def board_cells(game: str, options: Mapping[str, OptionValue]) -> int | None:
    """How many cells ``game``'s board has with ``options``, if the engine knows the game."""
    try:
        return len(load_game(game, **options).geometry.cells)
    except ValueError:
        return None


def _opponent(form: SeekForm) -> Opponent:
    """The opponent the form names."""
    if form.opponent == "player":
        name = form.player.strip()
        if not name:
            raise FormError("name the player to challenge")
        if len(name) > MAX_NAME_LENGTH or not re.fullmatch(NAME_PATTERN, name):
            raise FormError(f"a player's name {PATTERN_HINTS[NAME_PATTERN]}")
        return NamedOpponent(name=name)
    if form.opponent == "ai":
        if not 1 <= form.level <= MAX_AI_LEVEL:
            raise FormError(f"the AI's level is from 1 to {MAX_AI_LEVEL}")
        return AiOpponent(level=form.level)
    return AnyOpponent()


__all__ = [
    "BOARD_TIME",
    "TIME_PRESETS",
    "FormError",
    "SeekForm",
    "board_cells",
    "build_seek",
    "option_value",
    "read_options",
    "time_control",
]
