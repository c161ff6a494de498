"""The analysis workers: processes of their own, at the lowest CPU priority, below live games.

A live game's AI move never waits behind an analysis: analyses run in a
:class:`ProcessPoolExecutor` separate from the AI's (:mod:`gamut_server.ai.pool`), so
no AI request ever queues behind one, and its processes run at the lowest CPU priority
(:data:`~gamut_server.ai.analysis_worker.ANALYSIS_NICE`), so that where the machine has no
core to spare the AI's workers get it. Workers report each position judged on one queue,
which a thread of the server reads and hands to the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from gamut_server.ai import analysis_worker as worker
from gamut_server.ai import ending
from gamut_server.ai.analysis_worker import AnalysisRequest, Progress
from gamut_server.ai.ending import end_workers

log = logging.getLogger(__name__)

ProgressListener = Callable[[int, int], None]
"""Told the positions judged and their total as an analysis goes."""


class AnalysisUnavailableError(RuntimeError):
    """The analysis workers are not running (none configured, not started, or shut down)."""


class AnalysisPool:
    """Worker processes that analyse finished games, one game each at a time."""

    def __init__(
        self, workers: int, nice: int = worker.ANALYSIS_NICE, grace: float = ending.GRACE
    ) -> None:
        """A pool of ``workers`` processes, started by :meth:`start`; 0 means no analyses.

        ``nice`` is how far below the server's the workers' CPU priority is (a benchmark
        sets 0 to see what the lower priority is worth); closing kills a worker still
        alive ``grace`` seconds after being asked to end."""
        self.workers = workers
        """How many games may be analysed at once."""
        self.nice = nice
        self.grace = grace
        self._executor: ProcessPoolExecutor | None = None
        self._queue: multiprocessing.Queue[Progress | None] | None = None
        self._reader: threading.Thread | None = None
        self._listeners: dict[str, ProgressListener] = {}

    @property
    def available(self) -> bool:
        """Whether the pool takes games."""
        return self._executor is not None

    async def start(self) -> None:
        """Spawn the workers and the thread that reads their progress."""
        if self.workers <= 0:
            return
        context = multiprocessing.get_context("spawn")
        queue: multiprocessing.Queue[Progress | None] = context.Queue()
        self._executor = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=context,
            initializer=worker.start_worker,
            initargs=(queue, self.nice),
        )
        self._queue = queue
        loop = asyncio.get_running_loop()
        self._reader = threading.Thread(
            target=self._read, args=(queue, loop), name="analysis-progress", daemon=True
        )
        self._reader.start()

    async def analyse(
        self, request: AnalysisRequest, listener: ProgressListener | None = None
    ) -> dict[str, Any]:
        """The analysis of ``request``'s game, found in a worker; ``listener`` hears how
        far it has got. Raises what the worker raised, or ``BrokenProcessPool`` if the
        worker died (the workers are then replaced)."""
        executor = self._executor
        if executor is None:
            raise AnalysisUnavailableError("this server analyses no games")
        if listener is not None:
            self._listeners[request.game_id] = listener
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(executor, worker.run, request)
        except BrokenProcessPool:
            if executor is self._executor:  # not closed or replaced meanwhile: a worker died
                log.exception("an analysis worker died; restarting them")
                await self.restart()
            raise
        finally:
            self._listeners.pop(request.game_id, None)

    async def close(self) -> None:
        """Stop the workers, abandoning analyses under way (another server or a restart
        takes them over), killing those that outlast ``grace`` seconds, and the progress
        thread."""
        executor, self._executor = self._executor, None
        queue, self._queue = self._queue, None
        if executor is None or queue is None:
            return
        await end_workers(executor, self.grace)
        # A worker killed while writing to the queue may leave it holding the queue's
        # lock or half a report: then the end mark never arrives, and the reader (a
        # daemon thread) and the queue's own feeder are left behind rather than waited on.
        queue.put(None)
        queue.cancel_join_thread()
        if self._reader is not None:
            await asyncio.to_thread(self._reader.join, self.grace)
        queue.close()

    async def restart(self) -> None:
        """Replace workers that died by fresh ones."""
        await self.close()
        await self.start()

    def _read(
        self, queue: multiprocessing.Queue[Progress | None], loop: asyncio.AbstractEventLoop
    ) -> None:
        """Hand each progress report to the event loop, until told to stop."""
        while (item := queue.get()) is not None:
            try:
                loop.call_soon_threadsafe(self._heard, *item)
            except RuntimeError:  # the loop has closed: nobody is listening any more
                return

    def _heard(self, game_id: str, done: int, total: int) -> None:
        """Pass one progress report to its analysis's listener."""
        listener = self._listeners.get(game_id)
        if listener is not None:
            listener(done, total)
