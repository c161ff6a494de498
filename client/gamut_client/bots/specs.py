"""Bots by name: the ``SPEC`` argument of ``gamut bot``.

``random`` or ``ai:LEVEL`` (any :func:`~gamut_engine.players.parse_player` spec) plays
with the engine's players; ``module:Class`` or ``path/to/file.py:Class`` loads a
:class:`~gamut_client.bots.base.Bot` subclass (or an engine player class); and
``gomocup:COMMAND``, ``line:COMMAND`` and ``seed5:COMMAND`` run an external program
through a bridge.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

from gamut_client.bots.base import Bot, PlayerBot
from gamut_client.bridges.board import BoardFormat
from gamut_client.bridges.gomocup import GomocupBot
from gamut_client.bridges.line import LineBot
from gamut_client.bridges.seed import SeedProgramBot
from gamut_engine.players import Player

BRIDGE_SPECS = "gomocup:COMMAND, line:COMMAND or seed5:COMMAND"
"""The specs of external programs, for error messages."""


def load_bot(spec: str, *, board: BoardFormat = "scheme") -> Bot:
    """The bot ``spec`` names; ``ValueError`` with the reason if it names none.

    ``board`` is how boards are written to a ``seed5:`` program.
    """
    kind, colon, rest = spec.strip().partition(":")
    if kind == "gomocup" and rest:
        return GomocupBot(rest)
    if kind == "line" and rest:
        return LineBot(rest)
    if kind == "seed5" and rest:
        return SeedProgramBot(rest, board=board)
    try:
        if kind in ("random", "ai") or not colon:
            return PlayerBot(spec)
        return _imported_bot(kind, rest)
    except ValueError as error:
        raise ValueError(f"{error}; or a program: {BRIDGE_SPECS}") from None


def _imported_bot(module_name: str, class_name: str) -> Bot:
    """An instance of ``class_name`` from a module or a ``.py`` file."""
    module = _import(module_name)
    target = getattr(module, class_name, None)
    if not isinstance(target, type):
        raise ValueError(f"{module_name!r} has no class {class_name!r}")
    if issubclass(target, Bot):
        return target()
    _engine_player(target)
    return PlayerBot(lambda: _engine_player(target))


def _engine_player(player_class: type) -> Player:
    """An engine player made from ``player_class``, checked to choose moves."""
    player = player_class()
    if not isinstance(player, Player):
        raise ValueError(f"{player_class.__name__} has no choose_move(game, state) method")
    return player


def _import(module_name: str) -> Any:
    """The module called ``module_name``, or the Python file at that path."""
    if module_name.endswith(".py"):
        path = Path(module_name)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None or not path.is_file():
            raise ValueError(f"cannot load {module_name}: no such Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules.setdefault(path.stem, module)
        spec.loader.exec_module(module)
        return module
    try:
        return importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import {module_name!r}: {error}") from None
