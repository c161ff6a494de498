"""The cyclic garbage collector, tuned for a long-running server.

CPython's default thresholds run a young collection every 700 allocations and, now
and then, a full one that walks every object alive: with a thousand rooms and two
thousand connections that walk costs more than the moves themselves. The server
frees nearly everything by reference counting (a move's messages, effects and
queries form no cycles), so the collector can run far less often:

- after start-up, :func:`gc.freeze` moves every object alive then (modules, the
  engine's tables, restored rooms) out of the collector's sight for good;
- young collections run every :data:`YOUNG_THRESHOLD` allocations instead of 700, and
  the older generations after :data:`OLDER_THRESHOLDS` young ones.

Memory stays bounded: cycles are still found, a little later.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Final

YOUNG_THRESHOLD: Final = 20_000
"""Allocations (net of frees) between two young collections."""

OLDER_THRESHOLDS: Final = (20, 50)
"""Young collections before a middle one, and middle ones before a full one."""


@asynccontextmanager
async def tuned_collector() -> AsyncIterator[None]:
    """Freeze what start-up made and raise the thresholds; undo both on exit."""
    previous = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)
        gc.unfreeze()
