"""The games the server hosts, their options, and checking the options a seek asks for."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from gamut_engine import GAMES, AnyGame, OptionSpec, load_game
from gamut_protocol import GameInfo, OptionInfo
from gamut_server.rooms.describe import hosted_game, notation_hint, wire_options


class UnknownGameError(LookupError):
    """A seek names a game the server does not host."""


class BadOptionsError(ValueError):
    """A seek's options are not ones the game takes."""


def hosted_games() -> tuple[str, ...]:
    """The registry names of the games the server hosts: every registered game, in order."""
    return tuple(GAMES)


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
        options=tuple(option_info(spec) for spec in game.declared_options()),
        notation=notation_hint(game),
    )


def check_options(name: str, options: Mapping[str, bool | int | str]) -> AnyGame:
    """The game ``name`` with ``options``; raises if the server would not host it so.

    Raises :class:`UnknownGameError` for a game not hosted and :class:`BadOptionsError`
    (with a sentence for people) for an unknown option or a value out of range.
    """
    if name not in GAMES:
        known = ", ".join(hosted_games())
        raise UnknownGameError(f"this server does not host {name!r}; it hosts {known}")
    specs = {spec.name: spec for spec in GAMES[name].declared_options()}
    for option, value in options.items():
        spec = specs.get(option)
        if spec is None:
            raise BadOptionsError(f"{name} has no option {option!r}; it takes {', '.join(specs)}")
        try:
            spec.check(value)
        except ValueError as error:
            raise BadOptionsError(str(error)) from None
    try:
        return hosted_game(name, options)
    except ValueError as error:
        raise BadOptionsError(str(error)) from None


def option_info(spec: OptionSpec) -> OptionInfo:
    """A game's declared option as clients are told it."""
    return OptionInfo(
        name=spec.name,
        help=spec.help,
        default=spec.default,
        choices=spec.choices,
        minimum=spec.minimum,
        maximum=spec.maximum,
    )


def full_options(game: AnyGame) -> dict[str, bool | int | str]:
    """All of ``game``'s options, defaults included, as they are stored and sent."""
    return wire_options(game.options)
