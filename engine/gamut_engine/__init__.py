"""Gamut's rules engine: every game behind one interface, plus perft and search.

Pure and synchronous: no asyncio, no network, no pydantic.
"""

from gamut_engine.core import (
    DEFAULT_MAX_PLIES,
    REPETITION_LIMIT,
    Game,
    Geometry,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
)
from gamut_engine.perft import perft
from gamut_engine.registry import GAMES, AnyGame, load_game

__all__ = [
    "DEFAULT_MAX_PLIES",
    "GAMES",
    "REPETITION_LIMIT",
    "AnyGame",
    "Game",
    "Geometry",
    "IllegalMoveError",
    "InvalidMoveError",
    "Outcome",
    "load_game",
    "perft",
]
