"""How much work the analysis spends on each position: counted, not timed.

An analysis must give the same answer wherever and whenever it runs, so its budget is
counted in units of work. The search and a game's threat solver both read their clock
at every node they enter; :class:`WorkClock` is a clock that advances one unit at every
reading, so a "time" limit on it is a bound on nodes that covers the alpha-beta search
and the threat search alike, and gives both the share of it the AI's timed search gives
them. Wall-clock seconds only cap it: past :attr:`Budget.seconds` the clock jumps to
infinity, so a search on a machine far too busy still ends.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Final

from gamut_engine.search.nodes import Clock

DEFAULT_WORK: Final = 10_000
"""Units of work a position gets unless the caller says otherwise: some 10,000 nodes."""

DEFAULT_SECONDS: Final = 10.0
"""Wall-clock seconds after which a position's search stops whatever its work."""


@dataclass(frozen=True, slots=True)
class Budget:
    """The work each position may take, and the seconds that cap it."""

    work: int = DEFAULT_WORK
    """Clock readings (about one a node of either search) the position may take."""
    seconds: float = DEFAULT_SECONDS
    """Wall-clock seconds after which the position's search stops, whatever the work."""

    def __post_init__(self) -> None:
        if self.work < 100:
            raise ValueError(f"a position needs at least 100 units of work, not {self.work}")
        if not self.seconds > 0:
            raise ValueError(f"the time cap must be positive, not {self.seconds}")


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
        if self.readings & 63 == 0 and self._wall() >= self._cap:
            self.capped = True
        return math.inf if self.capped else float(self.readings)
