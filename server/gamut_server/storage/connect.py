"""Opening the database: the async engine for each backend."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from gamut_server.storage.group_transaction import WRITER_OPTION
from gamut_server.storage.urls import is_memory, is_sqlite

SQLITE_BUSY_TIMEOUT_MS = 5000
"""How long a SQLite writer waits for another to finish before giving up."""

WAL_RETRY_S = 0.05
"""Seconds between attempts to switch a locked database to WAL mode."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets readers run beside the writer; foreign keys are off in SQLite by default.

    The driver's own transaction handling is turned off (:func:`_sqlite_begin` begins
    instead): it would not begin before a ``SAVEPOINT``, whose release would then commit.
    """
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    _switch_to_wal(cursor)
    for pragma in ("foreign_keys=ON", "synchronous=FULL"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _switch_to_wal(cursor: Any) -> None:
    """Put the database in WAL mode, waiting while another process holds it.

    Changing the journal mode does not wait on the busy handler: several servers
    opening a new database file at once would otherwise see "database is locked".
    """
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(WAL_RETRY_S)


def _sqlite_begin(conn: Connection) -> None:
    """Begin a group writer's transaction, taking the write lock at once.

    Other connections only read (and create the tables): each statement is a
    transaction of its own, as with the driver's own handling.
    """
    if conn.get_execution_options().get(WRITER_OPTION, False):
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def _sqlite_engine(url: URL) -> AsyncEngine:
    options: dict[str, Any] = {"connect_args": {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}}
    if is_memory(url):
        # Every connection to ":memory:" would be a new, empty database: share one.
        options["poolclass"] = StaticPool
    elif url.database:
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url, **options)
    event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    event.listen(engine.sync_engine, "begin", _sqlite_begin)
    return engine


def _writer_connect_args() -> dict[str, Any]:
    """The ``sqlite3.connect`` arguments of the writer thread's connections."""
    return {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000, "check_same_thread": False}


def sqlite_writer_engine(url: URL) -> Engine:
    """A synchronous engine on the SQLite file ``url`` names, for the group writer's
    thread (see :mod:`gamut_server.storage.inline`): the driver's plain ``sqlite3``, with
    the pragmas and the ``BEGIN IMMEDIATE`` of the async engine's connections."""
    args = _writer_connect_args()
    engine = create_engine(url.set(drivername="sqlite+pysqlite"), connect_args=args)
    event.listen(engine, "connect", _sqlite_pragmas)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def sqlite_writer_connection(engine: Engine) -> sqlite3.Connection:
    """A plain ``sqlite3`` connection to the file of ``engine`` (a
    :func:`sqlite_writer_engine`), made and set up as that engine makes its own (the same
    file, arguments and pragmas), but of nobody's pool: the writer thread's own.

    Not one of the pool's: a connection that SQLite opens while the file cannot be
    written (made immutable, say) is opened read-only, and stays so; the pool's connection
    must never be the one left to be made again during such a fault.
    """
    args, params = engine.dialect.create_connect_args(engine.url)
    options: dict[str, Any] = {**params, **_writer_connect_args()}
    connection: sqlite3.Connection = sqlite3.connect(str(args[0]), **options)
    _sqlite_pragmas(connection, None)
    return connection


def _postgres_engine(url: URL, schema: str | None, *, pre_ping: bool = True) -> AsyncEngine:
    connect_args: dict[str, Any] = {}
    if schema is not None:
        connect_args["server_settings"] = {"search_path": schema}
    return create_async_engine(url, connect_args=connect_args, pool_pre_ping=pre_ping)


def postgres_writer_engine(url: URL, schema: str | None) -> AsyncEngine:
    """The group writers' engine on PostgreSQL: :func:`make_engine`'s, without a ping at
    each checkout, a round trip and about a tenth of the server's CPU at 100 games (one
    a group). A connection lost since its last group fails that group's first statement
    instead; SQLAlchemy then discards the pool's connections, and the group is tried
    again on a new one (:mod:`gamut_server.storage.faults`)."""
    return _postgres_engine(url, schema, pre_ping=False)


def make_engine(url: URL, schema: str | None) -> AsyncEngine:
    """An engine for ``url``; ``schema`` (PostgreSQL only) holds the tables."""
    if not is_sqlite(url):
        return _postgres_engine(url, schema)
    if schema is not None:
        raise ValueError("a schema can only be chosen on PostgreSQL")
    return _sqlite_engine(url)
