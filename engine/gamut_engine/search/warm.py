"""Paying a search's set-up costs before any clock runs.

The first search of a game in a fresh process does work no later one does: it builds
the game's lazily made tables (Lines of Action's evaluation and mobility tables, Connect
Five's line patterns and threat tables, Network's move orders), grows the searcher's
tables from empty, and runs every code path for the first time. On a loaded machine
that took a first move at a second a move past two seconds. :func:`warm_up` does it
ahead: a player calls it before a game's first move is timed, an AI worker process for
every game it expects before it takes requests.
"""

from __future__ import annotations

import weakref
from typing import Any, Final

from gamut_engine.core import Game
from gamut_engine.search.alphabeta import Searcher
from gamut_engine.search.collection import collector_held
from gamut_engine.search.result import Limits
from gamut_engine.search.work import WorkClock

WARM_WORK: Final = 300
"""Work of each warming search (see :class:`WorkClock`): some 300 nodes, threats included."""

WARM_SECONDS: Final = 1.0
"""Wall-clock cap of each warming search."""

WARM_PLIES: Final = 6
"""Positions searched: the start and the plies the searches themselves choose after it
(six, so that Connect Five's defences, asked from the fourth stone on, run too)."""

_warmed: weakref.WeakSet[Game[Any, Any]] = weakref.WeakSet()
"""The game objects already warmed in this process."""


def warm_up(searcher: Searcher[Any, Any]) -> None:
    """Search the first positions of the searcher's game briefly, then forget them.

    The searches are the timed kind the AI's levels 5 to 8 run (threat solver first),
    bounded by work. The searcher is left with its own clock and an empty table, and
    the game with every table built. Does nothing for a game already warmed here.
    """
    game = searcher.game
    if game in _warmed:
        return
    _warmed.add(game)
    clock, state = searcher.clock, game.initial_state()
    try:
        with collector_held():
            for _ in range(WARM_PLIES):
                if game.outcome(state) is not None:
                    break
                searcher.clock = WorkClock(WARM_SECONDS)
                result = searcher.search(state, Limits(time=WARM_WORK, nodes=WARM_WORK))
                state = game.play(state, result.move)
    finally:
        searcher.clock = clock
        searcher.clear()
