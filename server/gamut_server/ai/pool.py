"""The hosted AI's process pool: searches run in worker processes, never on the event loop.

A :class:`ProcessPoolExecutor` with the ``spawn`` start method (no forked copy of the
event loop, the sockets or the database connections) runs
:func:`gamut_server.ai.worker.think`. Several AI games think at once, one per worker;
more requests wait in the executor's queue, and none of it slows the event loop.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from gamut_server.ai import ending, worker
from gamut_server.ai.ending import end_workers
from gamut_server.ai.worker import ThinkAnswer, ThinkRequest

log = logging.getLogger(__name__)


class AIUnavailableError(RuntimeError):
    """The pool is not running (none configured, not started, or shut down)."""


class AIPool:
    """Worker processes that find the hosted AI's moves."""

    def __init__(self, workers: int, grace: float = ending.GRACE) -> None:
        """A pool of ``workers`` processes, started by :meth:`start`; 0 means no AI.

        Closing kills a worker still alive ``grace`` seconds after being asked to end."""
        self.workers = workers
        """How many searches may run at once."""
        self.grace = grace
        self._executor: ProcessPoolExecutor | None = None
        self.thinking = 0
        """Requests submitted and not yet answered."""
        self.on_answer: Callable[[float], None] = lambda seconds: None
        """Told how many seconds each answered search took (the metrics' histogram)."""

    @property
    def available(self) -> bool:
        """Whether the pool takes requests."""
        return self._executor is not None

    async def start(self) -> None:
        """Spawn the workers and wait until each has loaded the engine."""
        if self.workers <= 0:
            return
        context = multiprocessing.get_context("spawn")
        self._executor = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=worker.ignore_interrupts
        )
        loop = asyncio.get_running_loop()
        warm = [loop.run_in_executor(self._executor, worker.warm_up) for _ in range(self.workers)]
        await asyncio.gather(*warm)

    async def think(self, request: ThinkRequest) -> ThinkAnswer:
        """The AI's move for ``request``, found in a worker process.

        The request is stamped with the time it is queued, so its budget covers the
        wait for a free worker too.
        """
        executor = self._executor
        if executor is None:
            raise AIUnavailableError("the AI is not available on this server")
        loop = asyncio.get_running_loop()
        self.thinking += 1
        request = dataclasses.replace(request, issued=time.monotonic())
        try:
            answer = await loop.run_in_executor(executor, worker.think, request)
            self.on_answer(answer.think_ms / 1000)
            return answer
        except BrokenProcessPool:
            if executor is self._executor:  # not closed meanwhile: a worker died
                log.exception("an AI worker died; restarting the pool")
                await self._restart()
            raise
        finally:
            self.thinking -= 1

    async def close(self) -> None:
        """Stop the workers, abandoning searches still running.

        The executor's own shutdown would wait for every running search to end (up to
        the longest think time); a search whose answer nobody will read is not worth
        waiting for, so the workers are ended instead, killed if they outlast
        ``grace`` seconds (see :mod:`gamut_server.ai.ending`).
        """
        executor, self._executor = self._executor, None
        if executor is not None:
            await end_workers(executor, self.grace)

    async def _restart(self) -> None:
        """Replace a broken executor by a fresh one."""
        await self.close()
        await self.start()
