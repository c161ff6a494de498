"""How the server process is doing: the event loop's lag and the memory it holds.

:class:`LagMonitor` sleeps a fixed interval again and again and records how late
each wake-up is: a loop kept busy (a search run on it by mistake, a huge broadcast)
shows up at once. ``/health`` reports the figures, and the benchmark reads them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections import deque
from typing import Final

INTERVAL: Final = 0.05
"""Seconds between wake-ups."""

WINDOW: Final = 400
"""Wake-ups kept (20 s at the default interval)."""


class LagMonitor:
    """Measures how late the event loop wakes a sleeping task."""

    def __init__(self, interval: float = INTERVAL, window: int = WINDOW) -> None:
        """A monitor that is not running yet."""
        self.interval = interval
        self.lags_ms: deque[float] = deque(maxlen=window)
        """The latest wake-ups' lateness, in milliseconds (the window)."""
        self.worst_ms = 0.0
        """The worst lateness since start or the last :meth:`reset`."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start measuring."""
        self._task = asyncio.create_task(self._run(), name="lag-monitor")

    async def stop(self) -> None:
        """Stop measuring."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def reset(self) -> None:
        """Forget the figures so far."""
        self.lags_ms.clear()
        self.worst_ms = 0.0

    def stats(self) -> dict[str, float]:
        """Lag in milliseconds over the window: mean, 99th percentile and worst; and the
        worst since start."""
        lags = sorted(self.lags_ms) or [0.0]
        p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
        return {
            "loop_lag_mean_ms": round(sum(lags) / len(lags), 3),
            "loop_lag_p99_ms": round(p99, 3),
            "loop_lag_max_ms": round(lags[-1], 3),
            "loop_lag_worst_ms": round(self.worst_ms, 3),
        }

    async def _run(self) -> None:
        """Sleep, measure the lateness, repeat."""
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            await asyncio.sleep(self.interval)
            lag = max(0.0, (loop.time() - started - self.interval) * 1000)
            self.lags_ms.append(lag)
            self.worst_ms = max(self.worst_ms, lag)


def rss_bytes() -> int:
    """This process's resident memory in bytes (0 where ``/proc`` is missing)."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")
