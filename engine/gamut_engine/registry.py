"""Where games are found by name: adding a game adds one line here."""

from __future__ import annotations

import importlib
from typing import Any

from gamut_engine.core import Game

AnyGame = Game[Any, Any]
"""A game of any kind, as the server, the search and the clients hold one."""

GAMES: dict[str, str] = {
    "network": "gamut_engine.games.network:NetworkGame",
    "connect5": "gamut_engine.games.connect5:ConnectFiveGame",
    "loa": "gamut_engine.games.loa:LinesOfActionGame",
    "crusher": "gamut_engine.games.crusher:CrusherGame",
}
"""Every game's registry name and the class that implements it."""


def load_game(name: str, **options: Any) -> AnyGame:
    """The game called ``name`` with the given options.

    Raises ``ValueError`` with a sentence for people for an unknown game or a bad option.
    """
    try:
        target = GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise ValueError(f"unknown game {name!r}; the games are {known}") from None
    module_name, class_name = target.split(":")
    game_class = getattr(importlib.import_module(module_name), class_name)
    try:
        game: AnyGame = game_class(**options)
    except TypeError as error:
        raise ValueError(f"bad options for {name}: {error}") from None
    return game
