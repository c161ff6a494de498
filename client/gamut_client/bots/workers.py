"""Where a runner's bot code runs: worker threads, one lane per game, and background tasks.

Bot code is synchronous and may think for seconds, so it never runs on the event loop:
:meth:`Workers.call` runs it in a thread. Calls for one game go through that game's
lane (an ``asyncio.Lock``), so its hooks and moves keep their order; calls that belong
to no game (chat, offers) share one lane of their own. Every background task is kept
so the runner can let them finish (:meth:`Workers.settle`) before it returns.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Final, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

SETTLE_TIMEOUT: Final = 10.0
"""Seconds a closing runner gives the bot's queued calls (``on_game_end``…) to finish."""


class Workers:
    """Worker threads for bot code, and the runner's background tasks."""

    def __init__(self, threads: int, executor: Executor | None = None) -> None:
        """Run bot code on ``executor``, or on a pool of ``threads`` threads owned here."""
        self._owned = executor is None
        self._executor = executor or ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="gamut-bot"
        )
        self._aside = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` as a background task that :meth:`settle` waits for."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function`` in a worker thread and return what it returns."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, function, *args)

    async def in_lane(self, lane: asyncio.Lock, function: Callable[..., T], *args: Any) -> T:
        """Run ``function`` in a worker thread after the calls queued before it in ``lane``."""
        async with lane:
            return await self.call(function, *args)

    def in_lane_later(self, lane: asyncio.Lock, function: Callable[..., Any], *args: Any) -> None:
        """Queue ``function`` in ``lane`` and go on."""
        self.spawn(self.in_lane(lane, function, *args))

    def aside_later(self, function: Callable[[], None]) -> None:
        """Queue bot code that belongs to no game, one call at a time, and go on."""
        self.spawn(self.in_lane(self._aside, function))

    async def settle(self, timeout: float = SETTLE_TIMEOUT) -> None:
        """Let the queued work finish for up to ``timeout`` seconds; cancel what is left."""
        pending = set(self._tasks)
        if pending:
            _, late = await asyncio.wait(pending, timeout=timeout)
            for task in late:
                task.cancel()

    def shutdown(self) -> None:
        """Let the threads go (a thread still thinking ends on its own)."""
        if self._owned:
            self._executor.shutdown(wait=False, cancel_futures=True)

    def _done(self, task: asyncio.Task[Any]) -> None:
        """Forget a finished task; log its failure."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("bot task failed", exc_info=task.exception())
