"""The ladder's part of the :class:`~gamut_server.storage.Store`: ratings, rating history,
pool membership and the queue's history, plus reissuing an account's token.

:class:`LadderStorage` is a mixin of :class:`Store`; every write is one transaction
that has committed when the call returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_server.records.games import GameInfo
from gamut_server.records.ladder import (
    HistoryRow,
    Membership,
    QueueEvent,
    QueueRecord,
    RatingRow,
    RatingUpdate,
)
from gamut_server.storage import ladder_queries as queries
from gamut_server.storage.errors import StorageError
from gamut_server.storage.mixin import StoreMixin

T = TypeVar("T")


class AlreadyRatedError(StorageError):
    """The game's rating history is already stored."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} is already rated")
        self.game_id = game_id
        """The game."""


def _now(at: datetime | None) -> datetime:
    return datetime.now(UTC) if at is None else at


class LadderStorage(StoreMixin):
    """The ladder's methods of the store."""

    async def reissue_account(self, name: str, token_hash: str) -> bool:
        """Replace an account's token hash (lifting a revocation); ``False`` if no account."""
        return await self._transact(lambda conn: queries.reissue_account(conn, name, token_hash))

    async def record_rating(
        self,
        game_id: str,
        pool: str,
        updates: tuple[RatingUpdate, RatingUpdate],
        *,
        at: datetime | None = None,
    ) -> None:
        """Store a rated game's two rating changes and the players' new ratings, at once.

        Raises :class:`AlreadyRatedError` if the game was rated before.
        """
        at = _now(at)

        async def rate(conn: AsyncConnection) -> None:
            await queries.add_history(conn, game_id, pool, updates, at)
            for change in updates:
                await queries.apply_rating(conn, pool, change, at)

        try:
            await self._transact(rate)
        except IntegrityError as error:
            raise AlreadyRatedError(game_id) from error

    async def ratings(self, pool: str | None = None) -> list[RatingRow]:
        """Every player's rating in ``pool`` (``None``: in every pool)."""
        async with self._read() as conn:
            return await queries.ratings(conn, pool)

    async def rating_history(
        self, pool: str, *, name: str | None = None, since: datetime | None = None
    ) -> list[HistoryRow]:
        """The rating changes of ``pool``, oldest first (of one player, since a time)."""
        async with self._read() as conn:
            return await queries.history(conn, pool, name, since)

    async def unrated_games(self) -> list[GameInfo]:
        """Finished rated pool games whose rating is not stored (the server stopped first)."""
        async with self._read() as conn:
            return await queries.unrated_games(conn)

    async def set_membership(
        self,
        pool: str,
        name: str,
        *,
        member: bool,
        account_id: int | None = None,
        at: datetime | None = None,
    ) -> None:
        """Record that ``name`` joined (``member``) or left ``pool``."""
        at = _now(at)
        await self._transact(
            lambda conn: queries.set_membership(conn, pool, name, account_id, member, at)
        )

    async def mark_seen(self, name: str, *, at: datetime | None = None) -> None:
        """Note that ``name`` is connected now, in each pool it belongs to."""
        at = _now(at)
        await self._transact(lambda conn: queries.seen(conn, name, at))

    async def memberships(
        self, *, pool: str | None = None, name: str | None = None
    ) -> list[Membership]:
        """Memberships of a pool and/or a player, left ones included."""
        async with self._read() as conn:
            return await queries.memberships(conn, pool, name)

    async def record_queue_events(self, records: Sequence[QueueRecord]) -> None:
        """Append events to the queues' history, in one transaction."""
        if not records:
            return

        async def append(conn: AsyncConnection) -> None:
            for record in records:
                await queries.add_queue_event(conn, record)

        await self._transact(append)

    async def queue_events(
        self, pool: str, *, name: str | None = None, limit: int | None = None
    ) -> list[QueueRecord]:
        """A pool's queue history, oldest first (the latest ``limit`` events)."""
        async with self._read() as conn:
            return await queries.queue_events(conn, pool, name, limit)


def queue_record(
    pool: str,
    name: str,
    event: QueueEvent,
    *,
    game_id: str | None = None,
    wait_ms: int | None = None,
    at: datetime | None = None,
) -> QueueRecord:
    """One queue event, at ``at`` (now by default)."""
    return QueueRecord(pool, name, event, _now(at), game_id, wait_ms)
