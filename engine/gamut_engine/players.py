"""Computer players behind one small interface: given a game and a position, choose a move.

The server's AI, the console game and matches between programs all hold a
:class:`Player`; :func:`parse_player` builds one from a short spec such as ``random``,
``ai:5``, ``ai:depth=3``, ``ai:time=2`` or ``package.module:Class``.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Protocol, TextIO, runtime_checkable

from gamut_engine.registry import AnyGame
from gamut_engine.search.alphabeta import Searcher
from gamut_engine.search.collection import collector_held
from gamut_engine.search.levels import DEFAULT_LEVEL, get_level, search_level
from gamut_engine.search.result import Limits, Result, Stats
from gamut_engine.search.trace import DEFAULT_TRACE_LINES


@runtime_checkable
class Player(Protocol):
    """Anything that chooses moves. A player may also offer ``last_stats``."""

    def choose_move(self, game: AnyGame, state: Any) -> Any:
        """A legal move for the side to move in ``state``, a running position of ``game``."""
        ...


def last_stats(player: Player) -> Stats | None:
    """The statistics of the player's last search, where it searched at all."""
    stats = getattr(player, "last_stats", None)
    return stats if isinstance(stats, Stats) else None


class RandomPlayer:
    """Plays a uniformly random legal move; reproducible with a seed."""

    last_stats: Stats | None = None
    """Always ``None``: a random player does not search."""

    def __init__(self, seed: int | None = None) -> None:
        """A player drawing from its own random generator, seeded with ``seed``."""
        self.seed = seed
        self.rng = random.Random(seed)

    @property
    def spec(self) -> str:
        """The spec :func:`parse_player` builds this player from."""
        return "random" if self.seed is None else f"random:{self.seed}"

    def choose_move(self, game: AnyGame, state: Any) -> Any:
        """Any legal move, each as likely; ``ValueError`` once the game is over."""
        moves = game.legal_moves(state)
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        return self.rng.choice(moves)

    def __str__(self) -> str:
        return "random player"


class AIPlayer:
    """Plays the search's move, at a level for people or under explicit limits.

    With ``level`` (1-8) the level decides depth, time and noise; ``budget`` replaces the
    game's full-strength seconds a move, which every level takes its share of, and
    ``time`` caps the level's own seconds. Without a level, ``depth``, ``time`` and
    ``nodes`` are the search's limits as given (``depth`` alone: exactly that depth, no
    noise). With nothing at all, the player takes :data:`DEFAULT_LEVEL`.
    """

    def __init__(
        self,
        level: int | None = None,
        *,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        budget: float | None = None,
        trace: TextIO | None = None,
        trace_lines: int = DEFAULT_TRACE_LINES,
        seed: int | None = None,
    ) -> None:
        """Set up the player; ``ValueError`` for a bad level or limit, or both kinds at once."""
        if level is not None and (depth is not None or nodes is not None):
            raise ValueError("give either a level or search limits (depth, nodes), not both")
        if level is None and budget is not None:
            raise ValueError("a budget scales a level: give a level with it")
        if budget is not None and not budget > 0:
            raise ValueError(f"the budget must be a positive number of seconds, not {budget}")
        if level is None and depth is None and time is None and nodes is None:
            level = DEFAULT_LEVEL
        self.level = None if level is None else get_level(level)
        self.limits = Limits(depth=depth, time=time, nodes=nodes)
        self.budget = budget
        self.trace = trace
        self.trace_lines = trace_lines
        self.seed = seed
        self.last_result: Result[Any] | None = None
        """The last search's full answer: move, score, principal variation, statistics."""
        self._searcher: Searcher[Any, Any] | None = None

    @property
    def last_stats(self) -> Stats | None:
        """The statistics of the last search."""
        return None if self.last_result is None else self.last_result.stats

    @property
    def spec(self) -> str:
        """The spec :func:`parse_player` builds this player from."""
        parts = [] if self.level is None else [str(self.level.number)]
        limits = self.limits
        if limits.depth is not None:
            parts.append(f"depth={limits.depth}")
        if limits.time is not None:
            parts.append(f"time={limits.time:g}")
        if limits.nodes is not None:
            parts.append(f"nodes={limits.nodes}")
        if self.budget is not None:
            parts.append(f"budget={self.budget:g}")
        return "ai:" + ",".join(parts)

    def choose_move(self, game: AnyGame, state: Any) -> Any:
        """The best move the search finds within this player's level or limits."""
        searcher = self._searcher_for(game)
        with collector_held():
            if self.level is None:
                searcher.noise = 0
                self.last_result = searcher.search(state, self.limits)
            else:
                self.last_result = search_level(
                    searcher, state, self.level, max_time=self.limits.time, budget=self.budget
                )
        return self.last_result.move

    def _searcher_for(self, game: AnyGame) -> Searcher[Any, Any]:
        """The searcher of ``game``, kept from move to move for its transposition table."""
        if self._searcher is None or self._searcher.game is not game:
            self._searcher = Searcher(
                game, seed=self.seed, trace=self.trace, trace_lines=self.trace_lines
            )
        return self._searcher

    def __str__(self) -> str:
        if self.level is not None:
            return f"AI level {self.level.number}"
        return f"AI ({self.limits})"


def parse_player(spec: str) -> Player:
    """The player a spec names; ``ValueError`` with the reason if it names none.

    ``random`` or ``random:SEED``; ``ai``, ``ai:LEVEL`` or ``ai:`` with comma-separated
    ``level=``, ``depth=``, ``time=``, ``nodes=``, ``budget=`` (a leading bare number is
    the level), as :class:`AIPlayer` takes them;
    ``module:Class`` imports ``Class`` from ``module`` and calls it without arguments.
    """
    kind, _, rest = spec.strip().partition(":")
    if kind == "random":
        return RandomPlayer(_integer("seed", rest) if rest else None)
    if kind == "ai":
        return AIPlayer(**_ai_options(rest))
    if rest:
        return _imported_player(kind, rest)
    raise ValueError(
        f"unknown player {spec!r}: use random, ai, ai:LEVEL, ai:depth=D, ai:time=S, "
        "ai:nodes=N or module:Class"
    )


def _ai_options(text: str) -> dict[str, Any]:
    """The keyword arguments of :class:`AIPlayer` in an ``ai:`` spec."""
    options: dict[str, Any] = {}
    for index, part in enumerate(item.strip() for item in text.split(",") if item.strip()):
        name, equals, value = part.partition("=")
        if not equals and index == 0:
            name, value = "level", part
        elif not equals:
            raise ValueError(f"expected name=value in the ai spec, not {part!r}")
        name = name.strip()
        if name in ("level", "depth", "nodes"):
            options[name] = _integer(name, value)
        elif name in ("time", "budget"):
            options[name] = _number(name, value)
        else:
            raise ValueError(f"unknown ai option {name!r}: use level, depth, time, nodes or budget")
    return options


def _integer(name: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {text!r}") from None


def _number(name: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {text!r}") from None


def _imported_player(module_name: str, class_name: str) -> Player:
    """An instance of ``class_name`` from ``module_name``, checked to choose moves."""
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import {module_name!r}: {error}") from None
    player_class = getattr(module, class_name, None)
    if not callable(player_class):
        raise ValueError(f"{module_name!r} has no class {class_name!r}")
    player = player_class()
    if not isinstance(player, Player):
        raise ValueError(f"{module_name}:{class_name} has no choose_move(game, state) method")
    return player


def held_to_move_time(player: Player, seconds: float) -> Player:
    """``player`` held to ``seconds`` a move, as a per-move clock holds the server's AI.

    An AI player whose spec gives a level and nothing else (``ai``, ``ai:8``) has its
    level's time capped at ``seconds`` (``ai:8`` becomes ``ai:8,time=S``). A spec that
    sets its own search (``time=``, ``budget=``, ``depth=``, ``nodes=``) keeps it, and
    every other player is left as it is.
    """
    if not seconds > 0:
        raise ValueError(f"the time a move must be a positive number of seconds, not {seconds}")
    if isinstance(player, AIPlayer) and _level_alone(player):
        player.limits = Limits(time=seconds)
    return player


def _level_alone(player: AIPlayer) -> bool:
    """Whether ``player`` plays a level with no search settings of its own."""
    return player.level is not None and player.limits == Limits() and player.budget is None
