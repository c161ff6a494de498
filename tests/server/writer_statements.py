"""What SQLite's writer thread asks of the database: seen by SQLite itself (through
SQLAlchemy or on the thread's own ``sqlite3`` connection alike), or through SQLAlchemy."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.pool import Pool

from gamut_server.storage import raw_moves
from gamut_server.storage.connect import sqlite_writer_connection

WRITER_THREAD = "gamut-sqlite-writer"
"""How the name of SQLite's writer thread begins."""


def on_the_writer() -> bool:
    """Whether this runs on SQLite's writer thread."""
    return threading.current_thread().name.startswith(WRITER_THREAD)


@contextmanager
def listening(target: Any, name: str, listener: Callable[..., None]) -> Iterator[None]:
    """``listener`` listens to ``target``'s event ``name`` during the block."""
    event.listen(target, name, listener)
    try:
        yield
    finally:
        event.remove(target, name, listener)


@contextmanager
def writer_statements() -> Iterator[list[str]]:
    """The first word of each statement SQLite runs on the writer thread, on every
    connection checked out of a pool or made for the thread's own during the block
    (``INSERT``, ``BEGIN``, …)."""
    statements: list[str] = []

    def seen(statement: str) -> None:
        if on_the_writer():
            statements.append(statement.split()[0].upper())

    def traced(dbapi_connection: object, _record: object, _proxy: object) -> None:
        if isinstance(dbapi_connection, sqlite3.Connection):
            dbapi_connection.set_trace_callback(seen)

    def made(engine: Engine) -> sqlite3.Connection:
        connection = sqlite_writer_connection(engine)
        connection.set_trace_callback(seen)
        return connection

    with (
        listening(Pool, "checkout", traced),
        patch.object(raw_moves, "sqlite_writer_connection", made),
    ):
        yield statements


@contextmanager
def sqlalchemy_on_the_writer() -> Iterator[list[str]]:
    """The statements SQLAlchemy runs on the writer thread during the block."""
    statements: list[str] = []

    def executed(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if on_the_writer():
            statements.append(statement)

    with listening(Engine, "before_cursor_execute", executed):
        yield statements
