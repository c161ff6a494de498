"""The :class:`Store`: Gamut's storage in SQLite or PostgreSQL, opened, closed, and its
writes committed in groups.

What it stores comes from its mixins: games and moves (:mod:`~gamut_server.storage.game_store`),
rooms' chat (:mod:`~gamut_server.storage.chat_store`), accounts
(:mod:`~gamut_server.storage.account_store`), and the ladder, guests, people, analyses,
tournaments and moderation.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any, Final, TypeVar

from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from gamut_server.storage.account_store import AccountStorage
from gamut_server.storage.analyses import AnalysisStorage
from gamut_server.storage.chat_store import ChatStorage
from gamut_server.storage.connect import (
    make_engine,
    postgres_writer_engine,
    sqlite_writer_engine,
)
from gamut_server.storage.game_store import GameStorage
from gamut_server.storage.group import Batch, GroupWriter, RunGroup, Work
from gamut_server.storage.guest_claims import GuestClaimStorage
from gamut_server.storage.inline import ThreadedGroups
from gamut_server.storage.ladder_store import LadderStorage
from gamut_server.storage.migrate import prepare
from gamut_server.storage.moderation_store import ModerationStorage
from gamut_server.storage.people_store import PeopleStorage
from gamut_server.storage.pg_moves import PostgresGroups
from gamut_server.storage.tournaments import TournamentStorage
from gamut_server.storage.urls import database_url, is_memory, is_sqlite

POSTGRES_WRITERS: Final = 4
"""Group writers committing at once on PostgreSQL (SQLite takes one writer at a time)."""

T = TypeVar("T")


class Store(
    GameStorage,
    ChatStorage,
    AccountStorage,
    LadderStorage,
    GuestClaimStorage,
    PeopleStorage,
    AnalysisStorage,
    TournamentStorage,
    ModerationStorage,
):
    """Durable storage for the server; every write has committed when its call returns.

    Open one with ``await Store.open(url)`` or ``async with await Store.open(url) as
    store``; the tables are created or upgraded on open. Methods that take ``at`` default it to
    the current time; pass it to record a known instant. The games and their moves come
    from :class:`~gamut_server.storage.game_store.GameStorage`, rooms' chat from
    :class:`~gamut_server.storage.chat_store.ChatStorage`, accounts from
    :class:`~gamut_server.storage.account_store.AccountStorage`, the ladder's methods come
    from :class:`~gamut_server.storage.ladder_store.LadderStorage`, guests' token hashes
    from :class:`~gamut_server.storage.guest_claims.GuestClaimStorage`, people's passwords,
    sessions and ratings from :class:`~gamut_server.storage.people_store.PeopleStorage`, the
    AI's analyses from :class:`~gamut_server.storage.analyses.AnalysisStorage`, the
    tournaments from :class:`~gamut_server.storage.tournaments.TournamentStorage`.

    Writes made at the same time are committed together (group commit, see
    :mod:`gamut_server.storage.group`); each call still returns only once its own
    write has committed, and fails only for its own error.
    """

    def __init__(
        self,
        engine: AsyncEngine,
        url: URL,
        *,
        writers: int | None = None,
        schema: str | None = None,
    ) -> None:
        """Wrap an engine whose tables exist (in ``schema``, on PostgreSQL); use
        :meth:`open` instead.

        ``writers`` group writers commit at once (default: 1 on SQLite, else
        :data:`POSTGRES_WRITERS`).
        """
        self._engine = engine
        self.url = url
        """The async database URL in use."""
        if writers is None:
            writers = 1 if is_sqlite(url) else POSTGRES_WRITERS
        if is_sqlite(url) and writers != 1:
            raise ValueError("SQLite takes one group writer")
        self._threaded: ThreadedGroups | None = None
        if is_sqlite(url) and not is_memory(url):
            self._threaded = ThreadedGroups(sqlite_writer_engine(url))
        self._write_engine = engine if is_sqlite(url) else postgres_writer_engine(url, schema)
        run: RunGroup | None = self._threaded
        if not is_sqlite(url):
            run = PostgresGroups(self._write_engine)
        self._writer = GroupWriter(self._write_engine, writers=writers, run=run)
        self.on_commit: Callable[[float], None] = lambda seconds: None
        """Told how many seconds each write took to commit (the metrics' histogram)."""

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        schema: str | None = None,
        writers: int | None = None,
        migrate: bool = True,
    ) -> Store:
        """Connect to ``url`` (see :func:`database_url`) and upgrade its tables if needed.

        ``schema`` (PostgreSQL only) puts the tables in that schema, created if needed;
        ``writers`` is how many group writers commit at once (see :class:`Store`).
        Without ``migrate`` a database whose tables are not this Gamut's newest revision
        raises :class:`~gamut_server.storage.migrate.SchemaError` instead (see
        :mod:`gamut_server.storage.migrate`).
        """
        parsed = database_url(url)
        engine = make_engine(parsed, schema)
        try:
            await prepare(engine, schema, migrate=migrate)
            return cls(engine, parsed, writers=writers, schema=schema)
        except BaseException:
            await engine.dispose()
            raise

    async def close(self) -> None:
        """Let the writes already made commit, then close every connection.

        Writes asked for after this raise :class:`StoreClosedError`.
        """
        try:
            await self._writer.close()
        finally:
            if self._threaded is not None:
                await asyncio.to_thread(self._threaded.close)
            if self._write_engine is not self._engine:
                await self._write_engine.dispose()
            await self._engine.dispose()

    async def __aenter__(self) -> Store:
        """The store itself."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Close the store."""
        await self.close()

    async def _transact(self, work: Work[T]) -> T:
        """Run ``work`` in the next group transaction; return once that committed."""
        return await self._committed(work)

    async def _committed(self, work: Work[T], batch: Batch | None = None, item: Any = None) -> T:
        """Run ``work`` (or its ``batch``) in a group transaction, timing the commit."""
        started = time.perf_counter()
        result = await self._writer.submit(work, batch=batch, item=item)
        self.on_commit(time.perf_counter() - started)
        return result

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        async with self._engine.connect() as conn:
            yield conn
