"""What runs inside an AI worker process: rebuild a position and search it.

This module imports only the engine (and the worker's collection schedule), so a freshly
spawned worker starts quickly, and everything crossing the process boundary is a small
frozen dataclass of plain values. Each worker keeps one game object and one searcher per
variant it has played, so the transposition table carries over from move to move of the
games it serves, and the positions it last searched and answered, so the next request of
the same game plays only the moves made since instead of replaying the game from the
start.

A request's budget counts from the moment the pool queued it: the wait for a free
worker, rebuilding the position, measuring a low level's noise and the search all come
out of it, and :data:`TRANSFER_MARGIN` is kept back for the answer's way back to the
room.
"""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from gamut_engine import AnyGame, load_game
from gamut_engine.search import Searcher
from gamut_engine.search.levels import LEVELS, get_level, search_level
from gamut_engine.search.result import LEAST_TIME
from gamut_server.ai import worker_collection

TABLE_SIZE: Final = 1 << 18
"""Transposition table entries per cached searcher: bounded, so a worker's memory is."""

TRANSFER_MARGIN: Final = 0.03
"""Seconds of a request's budget kept back for the answer's way to the room: pickling,
the pipe, the pool's thread and the event loop."""

_CACHE_LIMIT: Final = 8
"""Variants a worker keeps a searcher for."""

POSITIONS_KEPT: Final = 256
"""Positions a worker keeps (each under its variant and the moves that led to it)."""

_searchers: dict[str, Searcher[Any, Any]] = {}
_positions: OrderedDict[tuple[str, tuple[str, ...]], Any] = OrderedDict()


@dataclass(frozen=True, slots=True)
class ThinkRequest:
    """One move to find: the game, the moves played so far, the level and the time budget."""

    game: str
    """The game's registry name."""
    options: dict[str, Any]
    """The options that recreate the game."""
    moves: tuple[str, ...]
    """Every move played so far, in the game's notation."""
    level: int
    """Strength from 1 up; levels past the engine's strongest play at the strongest."""
    budget_ms: int
    """The longest the answer may take, from ``issued`` on, whatever the level asks for."""
    issued: float | None = None
    """When the request was queued, on :func:`time.monotonic` (the same clock in every
    process of one machine); ``None`` counts from when a worker takes it."""


@dataclass(frozen=True, slots=True)
class ThinkAnswer:
    """The move found, with how long it took and what the search did."""

    move: str
    """The move in canonical notation."""
    think_ms: int
    """Milliseconds spent, from receiving the request to answering it."""
    ply: int
    """The ply of the position searched (the number of moves replayed)."""
    depth: int
    """Deepest iteration the search finished."""
    nodes: int
    """Positions the search generated."""
    score: int
    """The move's value for the side to move."""


def think(request: ThinkRequest) -> ThinkAnswer:
    """Find the side to move's move after ``request.moves`` within the request's budget."""
    started = time.perf_counter()
    time_left = request.budget_ms / 1000 - waited(request) - TRANSFER_MARGIN
    variant = variant_key(request.game, request.options)
    searcher = _searcher(variant, request.game, request.options)
    game = searcher.game
    state = position_after(game, variant, request.moves)
    level = get_level(max(1, min(request.level, len(LEVELS))))
    searcher.rng = random.Random()
    result = search_level(
        searcher,
        state,
        level,
        max_time=max(time_left, LEAST_TIME),
        spent=time.perf_counter() - started,
    )
    move = game.format_move(result.move)
    _keep(variant, (*request.moves, move), game.play(state, result.move))
    worker_collection.collect_after_answer()
    return ThinkAnswer(
        move=move,
        think_ms=round((time.perf_counter() - started) * 1000),
        ply=len(request.moves),
        depth=result.depth,
        nodes=result.stats.nodes,
        score=result.score,
    )


def waited(request: ThinkRequest) -> float:
    """Seconds ``request`` waited in the pool's queue before a worker took it."""
    if request.issued is None:
        return 0.0
    return max(0.0, time.monotonic() - request.issued)


def position_after(game: AnyGame, variant: str, moves: tuple[str, ...]) -> Any:
    """The state after ``moves``: from the longest start of them this worker keeps, playing
    the rest (each checked once); raises ``ValueError`` on a bad move."""
    known = len(moves)
    while known > 0 and (variant, moves[:known]) not in _positions:
        known -= 1
    state = _positions.get((variant, moves[:known])) if known else game.initial_state()
    state = replay(game, moves[known:], state)
    _keep(variant, moves, state)
    return state


def replay(game: AnyGame, moves: Sequence[str], state: Any = None) -> Any:
    """The state after ``moves`` from ``state`` (the start if ``None``); raises
    ``ValueError`` on a bad move."""
    if state is None:
        state = game.initial_state()
    for text in moves:
        state = game.play(state, game.parse_move(state, text))
    return state


def _keep(variant: str, moves: tuple[str, ...], state: Any) -> None:
    """Remember the state after ``moves``, forgetting the least recently used beyond
    :data:`POSITIONS_KEPT`."""
    _positions[(variant, moves)] = state
    _positions.move_to_end((variant, moves))
    while len(_positions) > POSITIONS_KEPT:
        _positions.popitem(last=False)


PARENT_CHECK_SECONDS: Final = 1.0
"""How often a worker checks that the server that started it is still alive."""


def ignore_interrupts() -> None:
    """Worker initialiser: leave Ctrl-C to the server, end with it, and hold the collector.

    The server shuts its workers down when it stops; a server killed outright cannot, so
    each worker also watches for its parent to disappear and then exits by itself. The
    collector runs only after answers (see :mod:`gamut_server.ai.worker_collection`).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker_collection.hold_collector()
    parent = os.getppid()
    watcher = threading.Thread(
        target=_exit_when_orphaned, args=(parent,), name="parent-watch", daemon=True
    )
    watcher.start()


def _exit_when_orphaned(parent: int) -> None:
    """Exit this process as soon as its parent is no longer ``parent``."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def warm_up() -> int:
    """Import the engine's games in this worker; returns the number of games loaded."""
    from gamut_engine import GAMES

    for name in GAMES:
        load_game(name)
    worker_collection.settle()
    return len(GAMES)


def variant_key(name: str, options: dict[str, Any]) -> str:
    """The key of a game and its options."""
    return json.dumps([name, options], sort_keys=True)


def _searcher(key: str, name: str, options: dict[str, Any]) -> Searcher[Any, Any]:
    """This worker's searcher for the variant ``key``, made on first use."""
    searcher = _searchers.get(key)
    if searcher is None:
        if len(_searchers) >= _CACHE_LIMIT:
            _forget(next(iter(_searchers)))
        searcher = Searcher(load_game(name, **options), table_size=TABLE_SIZE)
        _searchers[key] = searcher
    return searcher


def _forget(key: str) -> None:
    """Drop the variant ``key``'s searcher and the positions its game made."""
    _searchers.pop(key, None)
    for kept in [kept for kept in _positions if kept[0] == key]:
        del _positions[kept]
