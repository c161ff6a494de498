"""When an AI worker process runs Python's cycle collector: after each answer, never in one.

A search leaves tens of thousands of new objects in the young generations (its table's
entries, remembered evaluations), and collecting them takes up to a few tens of
milliseconds. Left to itself the collector would run at the first allocation after the
search, which in a worker is the answer's own pickling on its way back to the room,
inside the move's time. So a worker holds the collector off for good, and each answer
schedules a collection of the young generations a moment later, once the answer has
left; every :data:`FULL_EVERY` answers the collection is a full one, which frees
reference cycles in the old generation too. A request arriving during a collection
waits for it, and that wait, like any other, comes out of its budget.
"""

from __future__ import annotations

import gc
import threading
from typing import Final

COLLECT_AFTER: Final = 0.005
"""Seconds from handing an answer back to collecting: long enough for it to be sent."""

FULL_EVERY: Final = 32
"""Answers between full collections."""

YOUNG: Final = 1
"""The oldest generation an ordinary collection after an answer covers."""

_answers = 0


def hold_collector() -> None:
    """Stop the collector from starting by itself in this process (a worker initialiser)."""
    gc.disable()


def settle() -> None:
    """Collect once, then move everything alive out of the collector's sight.

    Called once the engine's modules and games are loaded: they live as long as the
    worker, so later full collections need not walk them (as the server does after
    start-up).
    """
    gc.collect()
    gc.freeze()


def collect_after_answer() -> threading.Timer:
    """Collect in a moment, on a thread of its own, once the answer now being returned has left."""
    global _answers
    _answers += 1
    generation = 2 if _answers % FULL_EVERY == 0 else YOUNG
    timer = threading.Timer(COLLECT_AFTER, gc.collect, args=(generation,))
    timer.name = "after-answer-collection"
    timer.daemon = True
    timer.start()
    return timer
