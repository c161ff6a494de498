"""Group commit: the writes waiting at one moment are committed in one transaction.

Every write of the :class:`~gamut_server.storage.Store` is a *request*: an async
function of a connection, run inside a transaction it does not open or commit. A
caller hands one to :meth:`GroupWriter.run` and waits. A writer task takes the first
request waiting and every other one waiting behind it (at most :data:`MAX_GROUP`),
runs them in the order they came in one transaction, commits once, and only then
answers each caller with its request's result. Requests that can run as a batch
(moves) and follow each other run together, with a few statements for all of them.

A request that raises fails alone: the group is rolled back and run again with a
savepoint per request, so the failing request's writes are undone and its caller
gets its error (a duplicate ply, say), while the others' writes commit. If the commit
itself fails, nothing of the group was stored: a lost connection is tried again a few
times, then every caller gets the error, the database's failures as
:class:`~gamut_server.storage.errors.StorageUnavailableError`.

One commit, so one disk flush, serves the whole group: while one group commits, the
next one gathers. SQLite has a single writer (its file takes one at a time anyway);
PostgreSQL a few, each committing its own groups.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from functools import partial
from typing import Any, Final, Protocol, TypeVar

from sqlalchemy.ext.asyncio import AsyncEngine

from gamut_server.storage.errors import StoreClosedError
from gamut_server.storage.faults import RETRY_PAUSES_S, as_storage_error, lost
from gamut_server.storage.group_transaction import (
    WRITER_OPTION,
    Batch,
    Outcome,
    Request,
    RequestError,
    Work,
    run_group,
)

__all__ = ["MAX_GROUP", "WRITER_OPTION", "Batch", "GroupWriter", "RunGroup", "Work"]

T = TypeVar("T")

log = logging.getLogger(__name__)


class RunGroup(Protocol):
    """Runs one group of requests in one transaction, commits it, and gives each
    request's outcome (see :func:`.group_transaction.run_group`)."""

    def __call__(self, group: Sequence[Request], *, savepoints: bool) -> Awaitable[list[Outcome]]:
        """Run ``group``; with ``savepoints`` each request in a savepoint of its own."""


MAX_GROUP: Final = 128
"""The most requests one transaction takes: a bound on how long the first one waits."""


class GroupWriter:
    """Runs write requests in shared transactions; see the module's description."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        writers: int,
        max_group: int = MAX_GROUP,
        run: RunGroup | None = None,
    ) -> None:
        """Writers for ``engine``: ``writers`` tasks commit groups concurrently, each
        group run by ``run`` (default: :func:`.group_transaction.run_group` on ``engine``)."""
        if writers < 1 or max_group < 1:
            raise ValueError("a group writer needs at least one writer and one request")
        self._run = run or partial(run_group, engine)
        self._writers = writers
        self._max_group = max_group
        self._queue: asyncio.Queue[Request] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = False

    async def run(self, work: Work[T], *, batch: Batch | None = None, item: Any = None) -> T:
        """Run ``work`` in the next group; return its result once that group committed.

        With ``batch``, the request may instead run in one call of ``batch`` with the
        ``item`` of every request of that batch kind right before or after it (its
        result is then ``None``). Raises what ``work`` raised, the commit's error if
        the group could not commit, or :class:`StoreClosedError` after :meth:`close`.
        """
        return await self.submit(work, batch=batch, item=item)

    def submit(
        self, work: Work[T], *, batch: Batch | None = None, item: Any = None
    ) -> asyncio.Future[T]:
        """:meth:`run` as a future to await (one coroutine fewer for a caller that
        awaits it at once); :class:`StoreClosedError` at once after :meth:`close`."""
        if self._closed:
            raise StoreClosedError()
        if not self._tasks:
            self._start()
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(Request(work, future, batch, item))
        return future

    async def close(self) -> None:
        """Refuse new requests, let the waiting ones commit, then stop the writers."""
        self._closed = True
        if self._tasks:
            await self._queue.join()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()

    def _start(self) -> None:
        """Start the writer tasks on the running loop, on first use."""
        if self._tasks:
            return
        self._tasks = [
            asyncio.create_task(self._write_groups(), name=f"storage-writer-{n}")
            for n in range(self._writers)
        ]

    async def _write_groups(self) -> None:
        """One writer: commit group after group, for as long as the store is open."""
        while True:
            group = [await self._queue.get()]
            while len(group) < self._max_group and not self._queue.empty():
                group.append(self._queue.get_nowait())
            try:
                await self._commit([request for request in group if not request.future.done()])
            finally:
                for _ in group:
                    self._queue.task_done()

    async def _commit(self, group: list[Request]) -> None:
        """Run ``group`` in one transaction and answer each request after the commit.

        A group whose connection was lost (or could not be made) runs again after a
        pause, a few times (see :mod:`gamut_server.storage.faults`); then every caller
        gets the error.
        """
        if not group:
            return  # every caller gave up (was cancelled) before its turn
        pauses = iter(RETRY_PAUSES_S)
        while True:
            try:
                outcomes = await self._run_once(group)
            except Exception as error:
                pause = next(pauses, None)
                if pause is None or self._closed or not lost(error):
                    _fail(group, as_storage_error(error))
                    return
                log.warning("the database connection failed (%s); trying again", error)
                await asyncio.sleep(pause)
                continue
            except BaseException as error:
                _fail(group, error)
                raise
            _answer(outcomes)
            return

    async def _run_once(self, group: list[Request]) -> list[Outcome]:
        """Run ``group`` in one transaction, committed.

        The group runs first without savepoints, which cost as much as a request's
        own statements. If a request fails, that transaction is rolled back and the
        group runs again with a savepoint per request, so only the failing ones fail.
        A lost connection is raised, whichever request met it.
        """
        try:
            return await self._run(group, savepoints=False)
        except RequestError as failed:
            if lost(failed.error):
                raise failed.error from None
            if len(group) == 1:
                return [Outcome(group[0], error=failed.error)]
            return await self._run(group, savepoints=True)


def _answer(outcomes: list[Outcome]) -> None:
    """After the commit: each caller gets its request's result or error."""
    for outcome in outcomes:
        future = outcome.request.future
        if future.done():
            continue
        if outcome.error is None:
            future.set_result(outcome.value)
        else:
            future.set_exception(as_storage_error(outcome.error))


def _fail(group: list[Request], error: BaseException) -> None:
    """Nothing of ``group`` was committed: every caller still waiting gets ``error``."""
    for request in group:
        if request.future.done():
            continue
        if isinstance(error, Exception):
            request.future.set_exception(error)
        else:
            request.future.cancel()
