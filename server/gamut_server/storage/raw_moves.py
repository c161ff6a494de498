"""A group of nothing but runs of moves, written with the writer thread's own ``sqlite3``
connection: ``BEGIN IMMEDIATE``, two statements a run, ``COMMIT``, no SQLAlchemy.

Through SQLAlchemy a group also cost a connection's checkout and return, a transaction's
object and events, and a result for each statement, all in Python on the writer thread,
which holds the interpreter lock from the event loop meanwhile. Here the thread keeps a
connection of its own (:func:`.connect.sqlite_writer_connection`: the same file,
arguments and pragmas as the writer's engine's connections: WAL, ``synchronous=FULL``,
the busy timeout, foreign keys) and talks to ``sqlite3`` directly.

The statements and their checks are :mod:`.plain_moves`' (the fence of a cluster's epoch
included): a run with a move that would be refused raises
:class:`~.plain_moves.PlainRefusedError` after the transaction is rolled back, and the
group is written the general way, which tells each refused caller why. The driver's
errors are raised as SQLAlchemy's (as every other statement of the store raises them),
a statement's inside :class:`~.group_transaction.RequestError` as a request's would be;
the connection is then given up, and the next group takes a new one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from gamut_server.storage.connect import sqlite_writer_connection
from gamut_server.storage.group_transaction import RequestError
from gamut_server.storage.plain_moves import PlainMoves, PlainRefusedError, insert_sql, update_sql


class RawMoves:
    """Writes groups of plain runs on the writer thread's own connection of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._held: sqlite3.Connection | None = None

    def write(self, runs: Sequence[PlainMoves]) -> None:
        """On the writer thread: ``runs`` in one transaction, committed (see the module)."""
        conn = self._connection()
        try:
            self._execute(conn, "BEGIN IMMEDIATE")
            for run in runs:
                self._write_run(conn, run)
            self._execute(conn, "COMMIT")
        except PlainRefusedError:
            self._roll_back(conn)
            raise
        except BaseException:
            self._give_up()
            raise

    def _write_run(self, conn: sqlite3.Connection, run: PlainMoves) -> None:
        """One run's two statements; an error fails the group as a request's would."""
        try:
            updated = self._execute(conn, update_sql(run.games), run.update).rowcount
            if updated != run.games:
                raise PlainRefusedError("a move of the run must be stored the general way")
            self._execute(conn, insert_sql(run.moves), run.insert)
        except DBAPIError as error:
            raise RequestError(error) from error

    def _execute(
        self, conn: sqlite3.Connection, statement: str, parameters: Sequence[Any] = ()
    ) -> sqlite3.Cursor:
        """``statement`` run; the driver's error raised as SQLAlchemy would raise it."""
        try:
            return conn.execute(statement, parameters)
        except sqlite3.Error as error:
            raise self._wrapped(statement, parameters, error) from error

    def _wrapped(self, statement: str, parameters: Sequence[Any], error: sqlite3.Error) -> Any:
        """``error`` as SQLAlchemy's exception of its kind (``OperationalError``, …)."""
        dialect = self._engine.dialect
        return DBAPIError.instance(
            statement,
            tuple(parameters),
            error,
            sqlite3.Error,
            connection_invalidated=dialect.is_disconnect(cast(Any, error), None, None),
            dialect=dialect,
        )

    def _connection(self) -> sqlite3.Connection:
        """The thread's connection, made the first time (and after a failure)."""
        if self._held is None:
            self._held = sqlite_writer_connection(self._engine)
        return self._held

    def _roll_back(self, conn: sqlite3.Connection) -> None:
        """Undo the transaction begun; a connection that cannot is given up."""
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        except sqlite3.Error:
            self._give_up()

    def _give_up(self) -> None:
        """Close the connection (rolling back what it began): it failed, or was interrupted."""
        held, self._held = self._held, None
        if held is not None:
            held.close()

    def close(self) -> None:
        """Close the connection (once the writer thread has stopped)."""
        self._give_up()
