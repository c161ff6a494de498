"""A clock that counts work instead of seconds, for searches that must be reproducible.

The search reads its clock at every node it enters, and a game's threat solver at every
node of its own; :class:`WorkClock` advances one unit at every reading. A search given
it as its clock and a "time" limit of ``n`` is bounded by ``n`` readings, about ``n``
nodes of both searches together, and the threat solver gets the share of it the timed
search always gives it. Such a search does the same work wherever it runs. Wall-clock
seconds only cap it: past the cap the clock reads infinity, so a search on a machine
far too busy still ends.
"""

from __future__ import annotations

import math
import time

from gamut_engine.search.nodes import Clock

WALL_CHECK_MASK = 63
"""The wall clock is looked at once every 64 readings (a reading costs far less)."""


class WorkClock:
    """A clock that reads one unit later at every reading, until a wall-clock cap.

    Pass it as a searcher's clock with the work as the time limit. :attr:`readings`
    counts the work done, :attr:`capped` says whether the wall clock ended it.
    """

    def __init__(self, seconds: float, wall: Clock = time.perf_counter) -> None:
        """A clock at 0 whose readings jump to infinity ``seconds`` from now on ``wall``."""
        self.readings = 0
        self.capped = False
        self._wall = wall
        self._cap = wall() + seconds

    def __call__(self) -> float:
        """The work done so far, or infinity once the wall-clock cap has passed."""
        self.readings += 1
        if self.readings & WALL_CHECK_MASK == 0 and self._wall() >= self._cap:
            self.capped = True
        return math.inf if self.capped else float(self.readings)
