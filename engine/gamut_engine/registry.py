"""Where games are found by name: the ``gamut.games`` entry-point group.

Every game, the four built-in ones included, is an entry point of that group naming
its :class:`~gamut_engine.core.Game` class, so a separate package adds a game by
declaring one in its own metadata and Gamut finds it without a change.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache
from importlib.metadata import entry_points
from typing import Any, Final

from gamut_engine.core import Game

AnyGame = Game[Any, Any]
"""A game of any kind, as the server, the search and the clients hold one."""

GROUP: Final = "gamut.games"
"""The entry-point group games are registered in."""

NAME: Final = re.compile(r"[a-z][a-z0-9_]{0,31}")
"""A game's registry name: what ``load_game`` and the protocol call it."""


class RegistryError(RuntimeError):
    """An installed package registers a game that cannot be used."""


@cache
def _classes() -> dict[str, type[AnyGame]]:
    """Every registered game class by name, in listing order."""
    found: dict[str, type[AnyGame]] = {}
    for point in entry_points(group=GROUP):
        try:
            game_class = point.load()
        except (ImportError, AttributeError) as error:
            where = f"the game {point.name!r} ({point.value})"
            raise RegistryError(f"{where} cannot be loaded: {error}") from error
        found.setdefault(point.name, _checked(point.name, point.value, game_class))
    order = sorted(found, key=lambda name: (found[name].listing_order, name))
    return {name: found[name] for name in order}


def _checked(name: str, target: str, game_class: object) -> type[AnyGame]:
    """``game_class`` if it is a game registered under its own name, else :class:`RegistryError`."""
    if not (isinstance(game_class, type) and issubclass(game_class, Game)):
        raise RegistryError(f"the game {name!r} ({target}) is not a Game class")
    if not NAME.fullmatch(name) or getattr(game_class, "name", None) != name:
        raise RegistryError(
            f"the game {name!r} ({target}) must be registered under its own name, "
            "in lower-case letters, digits and '_'"
        )
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

    Raises ``ValueError`` with a sentence for people for an unknown game or a bad option.
    """
    try:
        game_class = GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise ValueError(f"unknown game {name!r}; the games are {known}") from None
    try:
        return game_class(**options)
    except TypeError as error:
        raise ValueError(f"bad options for {name}: {error}") from None
