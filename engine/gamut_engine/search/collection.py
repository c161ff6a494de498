"""When Python's cycle collector may run around a timed move.

A search allocates tuples by the hundred thousand (the table's entries, the remembered
evaluations), which would trigger full collections of a large heap in mid-search: pauses
of a tenth of a second that a timed move cannot afford. So the collector is held off
while a search runs; the search makes no reference cycles.

Holding it for the search alone is not enough. Once the collector runs again, the next
allocation pays for collecting everything the search left in the young generations (up
to a few tens of milliseconds on a large table), and whatever allocates first is still
inside the move: the search's own clean-up, the player building its answer. So the hold
nests: the search holds the collector, a player holds it across choosing and answering,
and the collection falls after the answer has gone. :func:`collector_held` counts the
holds of every thread and lets the collector run again only when the last one ends.
"""

from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_holds = 0
_resume = False
"""Whether the collector was running when the first of the current holds began."""


class collector_held:  # noqa: N801 - used as a function, like contextlib's managers
    """Hold the cycle collector off until this and every other current hold has ended.

    Holds nest and may overlap across threads; the collector runs again after the last
    one only if it was running before the first. A class rather than a generator, so
    that leaving the hold allocates nothing that could start the collection there.
    """

    def __enter__(self) -> None:
        global _holds, _resume
        with _lock:
            if _holds == 0:
                _resume = gc.isenabled()
                gc.disable()
            _holds += 1

    def __exit__(self, *exc_info: object) -> None:
        global _holds
        with _lock:
            _holds -= 1
            if _holds == 0 and _resume:
                gc.enable()


def holds() -> int:
    """How many holds are current (0 when the collector runs as it was set)."""
    return _holds
