"""Ending a pool's worker processes within a bound, however busy they are.

A worker's search or analysis is abandoned when its pool closes: nobody will read the
answer. Each worker is asked to end (``SIGTERM``); one that has not ended after
:data:`GRACE` seconds (it ignores the request, or cannot act on it) is killed outright
(``SIGKILL``), so a server's shutdown never waits on a worker. Only then is the
executor shut down, whose own thread reaps the dead workers: it would wait for a live
one for ever.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import connection
from multiprocessing.process import BaseProcess
from typing import Final

log = logging.getLogger(__name__)

GRACE: Final = 5.0
"""Seconds a worker asked to end has before it is killed."""


async def end_workers(executor: ProcessPoolExecutor, grace: float = GRACE) -> None:
    """Stop ``executor``'s workers, killing those still alive after ``grace`` seconds,
    and shut it down, cancelling what it had not started."""
    # Python 3.11's executor offers no public way to end its workers, hence its table.
    workers = list(executor._processes.values())
    for process in workers:
        process.terminate()
    survivors: list[BaseProcess] = await asyncio.to_thread(_still_running, workers, grace)
    for survivor in survivors:
        log.warning("worker %s did not end %.1f s after SIGTERM; killing it", survivor.pid, grace)
        survivor.kill()
    # The executor's own thread notices the dead workers and reaps them; shutting down
    # waits for that thread, so no other thread races it to reap them.
    await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)


def _still_running(workers: Sequence[BaseProcess], grace: float) -> list[BaseProcess]:
    """The workers that have not ended within ``grace`` seconds.

    Their sentinels are watched rather than their exit collected, which stays the
    executor thread's to do."""
    pending = {process.sentinel: process for process in workers}
    deadline = time.monotonic() + grace
    while pending and (left := deadline - time.monotonic()) > 0:
        for ended in connection.wait(list(pending), timeout=left):
            assert isinstance(ended, int)  # a sentinel is a file descriptor
            pending.pop(ended, None)
    return list(pending.values())
