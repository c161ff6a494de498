"""Gamut's rules engine: every game behind one interface, plus perft and search.

Pure and synchronous: no asyncio, no network, no pydantic.
"""

from gamut_engine.core import (
    DEFAULT_MAX_PLIES,
    REPETITION_LIMIT,
    Capabilities,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
)
from gamut_engine.declaration import (
    ENGINE_ENDINGS,
    MAX_PLIES_OPTION,
    LadderPool,
    OptionSpec,
    OptionValue,
    ending_sentence,
)
from gamut_engine.geometry import CellShape, Geometry, Line, Place
from gamut_engine.perft import perft
from gamut_engine.registry import GAMES, AnyGame, load_game

__all__ = [
    "DEFAULT_MAX_PLIES",
    "ENGINE_ENDINGS",
    "GAMES",
    "MAX_PLIES_OPTION",
    "REPETITION_LIMIT",
    "AnyGame",
    "Capabilities",
    "CellShape",
    "Game",
    "Geometry",
    "IllegalMoveError",
    "InvalidMoveError",
    "LadderPool",
    "Line",
    "OptionSpec",
    "OptionValue",
    "Outcome",
    "Place",
    "ending_sentence",
    "load_game",
    "perft",
]
