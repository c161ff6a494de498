"""One group of write requests run in one transaction (see :mod:`.group`).

A group first runs plainly: its requests in order, consecutive ones of the same batch
kind (moves) together in one batch call. If a request or a batch raises, the whole
transaction is rolled back and the group runs again with every request alone in a
savepoint of its own, so that only the failing requests fail.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any, Final, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

T = TypeVar("T")

Work = Callable[[AsyncConnection], Awaitable[T]]
"""A write request: statements run on the connection, inside the group's transaction."""

Batch = Callable[[AsyncConnection, Sequence[Any]], Awaitable[None]]
"""Runs several requests of one kind at once from their items, as their works one after
the other would; raises (before or after writing) if any of them would fail."""

WRITER_OPTION: Final = "gamut_group_writer"
"""Execution option set on the writers' connections (SQLite begins them IMMEDIATE)."""


@dataclass(slots=True, eq=False)
class Request:
    """One caller's write and the future that answers it."""

    work: Work[Any]
    """The request run alone."""
    future: asyncio.Future[Any]
    """Answered once the request's group committed (or failed)."""
    batch: Batch | None = None
    """How several requests of this kind run at once, if they can."""
    item: Any = None
    """This request's item for :attr:`batch`."""


@dataclass(slots=True, eq=False)
class Outcome:
    """What one request's work returned or raised, before the group commits."""

    request: Request
    """The request."""
    value: Any = None
    """What its work returned."""
    error: Exception | None = None
    """What its work raised (its writes were rolled back to its savepoint)."""


class RequestError(Exception):
    """A request (or a batch) of a group run plainly raised ``error``."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error
        """What the request raised."""


async def run_group(
    engine: AsyncEngine, group: Sequence[Request], *, savepoints: bool
) -> list[Outcome]:
    """Run ``group`` in order in one transaction and commit it; every request's outcome.

    Plainly (``savepoints=False``), a request's error rolls everything back and is
    raised as :class:`RequestError`; with savepoints it becomes that request's outcome.
    """
    async with engine.connect() as conn:
        await conn.execution_options(**{WRITER_OPTION: True})
        async with conn.begin():
            if savepoints:
                return [await _in_savepoint(conn, request) for request in group]
            outcomes: list[Outcome] = []
            for run in runs_of(group):
                outcomes += await run_plainly(conn, run)
            return outcomes


def runs_of(group: Sequence[Request]) -> Iterator[list[Request]]:
    """The runs of ``group``: consecutive requests of one batch kind together, any
    other request alone."""
    for _, run in groupby(group, key=lambda request: request.batch or id(request)):
        yield list(run)


async def run_plainly(conn: AsyncConnection, run: list[Request]) -> list[Outcome]:
    """Run one request, or a batch of several; an error fails the whole transaction."""
    batch = run[0].batch
    try:
        if len(run) == 1 or batch is None:
            return [Outcome(run[0], value=await run[0].work(conn))]
        await batch(conn, [request.item for request in run])
        return [Outcome(request) for request in run]
    except Exception as error:
        raise RequestError(error) from error


async def _in_savepoint(conn: AsyncConnection, request: Request) -> Outcome:
    """Run one request in a savepoint: if it raises, only its own writes are undone."""
    try:
        async with conn.begin_nested():
            return Outcome(request, value=await request.work(conn))
    except Exception as error:
        return Outcome(request, error=error)
