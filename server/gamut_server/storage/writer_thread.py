"""A thread of its own that runs functions handed over from the event loop, one at a time.

What :meth:`asyncio.loop.run_in_executor` does with a one-thread pool, with less on the
event loop for each hand-over: no pool's locks, semaphore, work item and
``concurrent.futures.Future`` chained to an asyncio one, only a queue's ``put`` and,
from the thread, one ``call_soon_threadsafe`` that answers the asyncio future. A group
of moves is handed over once, so this is a fixed cost a group on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from queue import SimpleQueue
from typing import Any, TypeVar, cast

T = TypeVar("T")

_Job = tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any], asyncio.AbstractEventLoop]


class WriterThread:
    """Runs the functions given to :meth:`run` in order on one thread named ``name``."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._jobs: SimpleQueue[_Job | None] = SimpleQueue()
        self._thread: threading.Thread | None = None

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` run on the thread; what it returns, or raises."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name=self._name, daemon=True)
            self._thread.start()
        self._jobs.put((function, args, future, loop))
        return cast(T, await future)

    def _work(self) -> None:
        """On the thread: each job in turn until :meth:`close`."""
        while (job := self._jobs.get()) is not None:
            function, args, future, loop = job
            try:
                result = function(*args)
            except BaseException as error:  # the caller's to handle, as an executor's would be
                _tell(loop, future, None, error)
            else:
                _tell(loop, future, result, None)

    def close(self) -> None:
        """Let the jobs handed over run, then stop the thread (blocking: call off the loop)."""
        if self._thread is None:
            return
        self._jobs.put(None)
        self._thread.join()
        self._thread = None


def _tell(
    loop: asyncio.AbstractEventLoop,
    future: asyncio.Future[Any],
    result: Any,
    error: BaseException | None,
) -> None:
    """From the thread: answer ``future`` on its loop (unless that loop has closed)."""
    with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
        loop.call_soon_threadsafe(_settle, future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """On the loop: ``future``'s answer, unless its caller gave up."""
    if future.done():
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)
