"""A SQLite file's group transactions run on a thread of their own, in one hand-over each.

Through aiosqlite every statement crosses to the driver's thread and back (a cursor,
the statement, its rows, the cursor's close: three or four crossings a statement), and
a group of moves took about fifteen; each crossing wakes a thread and the event loop
and hands the interpreter lock over, which cost more CPU than the statements. Here the
group runs whole on one writer thread, through the driver's plain ``sqlite3``
connection: the same requests, the same statements, the same transaction, savepoints
and commit (see :mod:`.group_transaction`), and one crossing for all of it.

The thread holds the interpreter lock while it runs Python, and the event loop waits
for it meanwhile. So the moves of a group, most of its rows, are made into plain rows
on the event loop before the hand-over, and the thread gives them to ``sqlite3`` as
they are, two statements a run of moves whatever its length (:mod:`.plain_moves`);
while SQLite works, the lock is free. A run with a move that would be refused is
rolled back and the group written the general way, which tells each caller why.

The requests are async functions of an :class:`~sqlalchemy.ext.asyncio.AsyncConnection`.
They are given an :class:`InlineConnection`, which has its methods but runs each call at
once on the synchronous connection, so a request never waits on anything and its
coroutine runs to its end in one step (:func:`run_inline`). A request that awaits
something else fails with :class:`InlineAwaitError` rather than block the thread.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Coroutine, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar, cast

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from gamut_server.storage.group_transaction import (
    WRITER_OPTION,
    Outcome,
    Request,
    RequestError,
    run_group,
    run_plainly,
)
from gamut_server.storage.plain_moves import (
    MoveStatements,
    PlainMoves,
    PlainRefusedError,
    Run,
    plain_runs,
    write_plain,
)
from gamut_server.storage.raw_moves import RawMoves
from gamut_server.storage.writer_thread import WriterThread

T = TypeVar("T")


class InlineAwaitError(RuntimeError):
    """A write request awaited something other than its connection's calls."""


def run_inline(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine``, which must never wait, to its end; its result."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    coroutine.close()
    raise InlineAwaitError("a write request awaited something other than its connection")


class InlineConnection:
    """The methods of an ``AsyncConnection`` that the store's requests use, each run at
    once on the synchronous connection ``sync_connection``."""

    def __init__(self, sync_connection: Connection) -> None:
        self.sync_connection = sync_connection
        """The connection every call runs on."""
        self.dialect = sync_connection.dialect
        """The database's dialect."""

    async def execute(self, statement: Any, parameters: Any = None, **options: Any) -> Any:
        """Run ``statement``; its result."""
        return self.sync_connection.execute(statement, parameters, **options)

    async def exec_driver_sql(self, statement: str, parameters: Any = None) -> Any:
        """Run the SQL text ``statement``; its result."""
        return self.sync_connection.exec_driver_sql(statement, parameters)

    async def scalar(self, statement: Any, parameters: Any = None) -> Any:
        """The first column of the first row ``statement`` gives."""
        return self.sync_connection.scalar(statement, parameters)

    async def run_sync(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """``function`` called with the synchronous connection."""
        return function(self.sync_connection, *args, **kwargs)

    async def execution_options(self, **options: Any) -> InlineConnection:
        """Set execution options on the connection."""
        self.sync_connection.execution_options(**options)
        return self

    def get_execution_options(self) -> Any:
        """The connection's execution options."""
        return self.sync_connection.get_execution_options()

    @asynccontextmanager
    async def begin(self) -> AsyncIterator[None]:
        """A transaction, committed at the end of the block (rolled back on an error)."""
        with self.sync_connection.begin():
            yield

    @asynccontextmanager
    async def begin_nested(self) -> AsyncIterator[None]:
        """A savepoint, released at the end of the block (rolled back on an error)."""
        with self.sync_connection.begin_nested():
            yield


class InlineEngine:
    """An engine whose connections are :class:`InlineConnection`\\ s of ``engine``'s."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        """The synchronous engine."""

    @asynccontextmanager
    async def connect(self) -> AsyncIterator[InlineConnection]:
        """A connection for the block."""
        with self.engine.connect() as connection:
            yield InlineConnection(connection)


class ThreadedGroups:
    """Runs group transactions (:func:`.group_transaction.run_group`) one at a time on
    a thread of its own, with the synchronous ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._inline = cast(AsyncEngine, InlineEngine(engine))
        self._statements = MoveStatements.for_dialect(engine.dialect)
        self._raw = RawMoves(engine)
        self._thread = WriterThread("gamut-sqlite-writer")

    async def __call__(self, group: Sequence[Request], *, savepoints: bool) -> list[Outcome]:
        """Run ``group`` in one transaction on the writer thread and commit it."""
        runs = None if savepoints else plain_runs(self._statements, group)
        return await self._thread.run(self._run, group, runs, savepoints)

    def _run(
        self, group: Sequence[Request], runs: list[Run] | None, savepoints: bool
    ) -> list[Outcome]:
        """On the writer thread: the whole group, start to commit."""
        if runs is not None:
            try:
                return self._run_plain(group, runs)
            except PlainRefusedError:
                pass  # rolled back: the general way tells each refused caller why
        return run_inline(run_group(self._inline, group, savepoints=savepoints))

    def _run_plain(self, group: Sequence[Request], runs: list[Run]) -> list[Outcome]:
        """The group's runs in one transaction, the moves' from their plain rows: on the
        thread's own ``sqlite3`` connection if they are all moves, else through SQLAlchemy."""
        plain = [moves for _, moves in runs if moves is not None]
        if len(plain) < len(runs):
            return self._run_mixed(runs)
        self._raw.write(plain)
        return [Outcome(request) for request in group]

    def _run_mixed(self, runs: list[Run]) -> list[Outcome]:
        """Runs of moves and other requests in one transaction through SQLAlchemy."""
        with self._engine.connect() as conn:
            conn.execution_options(**{WRITER_OPTION: True})
            inline = cast(AsyncConnection, InlineConnection(conn))
            with conn.begin():
                outcomes: list[Outcome] = []
                for run, plain in runs:
                    if plain is None:
                        outcomes += run_inline(run_plainly(inline, run))
                    else:
                        self._write_moves(conn, plain)
                        outcomes += [Outcome(request) for request in run]
                return outcomes

    def _write_moves(self, conn: Connection, plain: PlainMoves) -> None:
        """Write a run of moves; an error fails the transaction, as a request's would."""
        try:
            write_plain(conn, plain)
        except PlainRefusedError:
            raise
        except Exception as error:
            raise RequestError(error) from error

    def close(self) -> None:
        """Wait for the group being written, then close the thread and the connections."""
        self._thread.close()
        self._raw.close()
        self._engine.dispose()
