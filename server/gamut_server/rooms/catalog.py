"""The games the server hosts, their options, and checking the options a seek asks for."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Final

from gamut_engine import DEFAULT_MAX_PLIES, GAMES, AnyGame, load_game
from gamut_protocol import GameInfo, OptionInfo
from gamut_server.rooms.describe import notation_hint, wire_options

MAX_PLIES_LIMIT: Final = 2_000
"""The longest game a seek may ask for, in plies."""

_MAX_PLIES = OptionInfo(
    name="max_plies",
    help="moves after which an unfinished game is drawn",
    default=DEFAULT_MAX_PLIES,
    minimum=10,
    maximum=MAX_PLIES_LIMIT,
)

GAME_OPTIONS: Final[dict[str, tuple[OptionInfo, ...]]] = {
    "network": (
        OptionInfo(
            name="rules",
            help="cs61b: the 2014 rules of record; 2015: rows A-H, a both-networks step is illegal",
            default="cs61b",
            choices=("cs61b", "2015"),
        ),
        _MAX_PLIES,
    ),
    "connect5": (
        OptionInfo(
            name="size",
            help="cells along each side of the board",
            default=15,
            minimum=5,
            maximum=19,
        ),
        _MAX_PLIES,
    ),
    "loa": (
        OptionInfo(name="size", help="cells along each side", default=8, choices=(5, 6, 8)),
        _MAX_PLIES,
    ),
    "crusher": (
        OptionInfo(
            name="n", help="cells along each edge of the hexagon", default=3, minimum=2, maximum=13
        ),
        _MAX_PLIES,
    ),
}
"""The options each game takes, as clients are told."""


_KINDS: Final[dict[type, str]] = {bool: "true or false", int: "a whole number", str: "text"}


class UnknownGameError(LookupError):
    """A seek names a game the server does not host."""


class BadOptionsError(ValueError):
    """A seek's options are not ones the game takes."""


def hosted_games() -> tuple[str, ...]:
    """The registry names of the games the server hosts, in registry order."""
    return tuple(name for name in GAMES if name in GAME_OPTIONS)


@cache
def game_infos() -> tuple[GameInfo, ...]:
    """Every hosted game with its options and notation (the ``game_list`` answer)."""
    return tuple(_game_info(name) for name in hosted_games())


def _game_info(name: str) -> GameInfo:
    """One game as ``game_list`` shows it, with the default options."""
    game = load_game(name)
    return GameInfo(
        name=name,
        title=game.title,
        sides=game.sides,
        options=GAME_OPTIONS[name],
        notation=notation_hint(game),
    )


def check_options(name: str, options: Mapping[str, bool | int | str]) -> AnyGame:
    """The game ``name`` with ``options``; raises if the server would not host it so.

    Raises :class:`UnknownGameError` for a game not hosted and :class:`BadOptionsError`
    (with a sentence for people) for an unknown option or a value out of range.
    """
    if name not in GAME_OPTIONS:
        known = ", ".join(hosted_games())
        raise UnknownGameError(f"this server does not host {name!r}; it hosts {known}")
    infos = {info.name: info for info in GAME_OPTIONS[name]}
    for option, value in options.items():
        info = infos.get(option)
        if info is None:
            raise BadOptionsError(f"{name} has no option {option!r}; it takes {', '.join(infos)}")
        _check_value(info, value)
    try:
        return load_game(name, **options)
    except ValueError as error:
        raise BadOptionsError(str(error)) from None


def _check_value(info: OptionInfo, value: bool | int | str) -> None:
    """Raise :class:`BadOptionsError` unless ``value`` suits the option ``info`` describes."""
    if type(value) is not type(info.default):
        kind = _KINDS.get(type(info.default), "value of another kind")
        raise BadOptionsError(f"option {info.name!r} takes {kind}, not {value!r}")
    if info.choices and value not in info.choices:
        allowed = ", ".join(str(choice) for choice in info.choices)
        raise BadOptionsError(f"option {info.name!r} is one of {allowed}, not {value!r}")
    if isinstance(value, int) and not isinstance(value, bool):
        if info.minimum is not None and value < info.minimum:
            raise BadOptionsError(f"option {info.name!r} is at least {info.minimum}, not {value}")
        if info.maximum is not None and value > info.maximum:
            raise BadOptionsError(f"option {info.name!r} is at most {info.maximum}, not {value}")


def full_options(game: AnyGame) -> dict[str, bool | int | str]:
    """All of ``game``'s options, defaults included, as they are stored and sent."""
    return wire_options(game.options)
