"""Where games are found by name: the built-in games and the ``gamut.games`` entry points.

The four built-in games are always there, even when the engine is vendored or run from a
source folder without installed metadata. Any other package adds a game by declaring an
entry point in that group naming its :class:`~gamut_engine.core.Game` class, and Gamut
finds it without a change. Every game is checked as it is registered: its name, its
capabilities (a game a server cannot host is refused in a sentence) and its colours.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any, Final

from gamut_engine.core import Game
from gamut_engine.declaration import check_colours

AnyGame = Game[Any, Any]
"""A game of any kind, as the server, the search and the clients hold one."""

GROUP: Final = "gamut.games"
"""The entry-point group games are registered in."""

NAME: Final = re.compile(r"[a-z][a-z0-9_]{0,31}")
"""A game's registry name: what ``load_game`` and the protocol call it."""

BUILT_IN: Final[Mapping[str, str]] = {
    "network": "gamut_engine.games.network:NetworkGame",
    "connect5": "gamut_engine.games.connect5:ConnectFiveGame",
    "loa": "gamut_engine.games.loa:LinesOfActionGame",
    "crusher": "gamut_engine.games.crusher:CrusherGame",
}
"""The games that come with the engine, by name, as ``module:Class``."""


class RegistryError(RuntimeError):
    """An installed package registers a game that cannot be used."""


def _load(name: str, target: str) -> object:
    """The object ``target`` (``module:attribute``) names; :class:`RegistryError` if none."""
    module, _, attribute = target.partition(":")
    try:
        return getattr(import_module(module), attribute)
    except (ImportError, AttributeError) as error:
        raise RegistryError(f"the game {name!r} ({target}) cannot be loaded: {error}") from error


@cache
def _classes() -> dict[str, type[AnyGame]]:
    """Every registered game class by name, in listing order."""
    found = {name: _checked(name, target, _load(name, target)) for name, target in BUILT_IN.items()}
    for point in entry_points(group=GROUP):
        if point.name not in found:
            found[point.name] = _checked(point.name, point.value, _load(point.name, point.value))
    order = sorted(found, key=lambda name: (found[name].listing_order, name))
    return {name: found[name] for name in order}


def _checked(name: str, target: str, game_class: object) -> type[AnyGame]:
    """``game_class`` if it is a game a server can host registered under its own name,
    else :class:`RegistryError` saying why not."""
    where = f"the game {name!r} ({target})"
    if not (isinstance(game_class, type) and issubclass(game_class, Game)):
        raise RegistryError(f"{where} is not a Game class")
    if not NAME.fullmatch(name) or getattr(game_class, "name", None) != name:
        raise RegistryError(
            f"{where} must be registered under its own name, in lower-case letters, digits and '_'"
        )
    refusal = game_class.capabilities.refusal()
    if refusal is not None:
        raise RegistryError(f"{where} cannot be hosted: {refusal}")
    try:
        check_colours(game_class.colours)
    except ValueError as error:
        raise RegistryError(f"{where} declares bad colours: {error}") from None
    return game_class


class Registry(Mapping[str, type[AnyGame]]):
    """The registered games by name, read from the entry points on first use."""

    def __getitem__(self, name: str) -> type[AnyGame]:
        return _classes()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_classes())

    def __len__(self) -> int:
        return len(_classes())


GAMES: Final = Registry()
"""Every game's registry name and the class that implements it, in listing order."""


def load_game(name: str, **options: Any) -> AnyGame:
    """The game called ``name`` with the given options.

    The game's own constructor checks the options first (in its own words); then every
    option is checked against the game's declaration, so that no game accepts a value its
    declaration does not (a ``max_plies`` of 5 or 3000, say). Raises ``ValueError`` with a
    sentence for people for an unknown game or a bad option.
    """
    try:
        game_class = GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise ValueError(f"unknown game {name!r}; the games are {known}") from None
    try:
        game = game_class(**options)
    except TypeError as error:
        raise ValueError(f"bad options for {name}: {error}") from None
    game_class.check_options(**options)
    return game
