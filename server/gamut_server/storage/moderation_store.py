"""Moderation's part of the :class:`~gamut_server.storage.Store`: moderators, sanctions,
reports, the audit log and blocks.

:class:`ModerationStorage` is a mixin of :class:`Store`. Every moderation action is
stored with its audit entry in one transaction, so the log holds every action taken.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_server.records.moderation import AuditEntry, Report, Sanction
from gamut_server.storage import moderation_queries as queries
from gamut_server.storage.mixin import StoreMixin

T = TypeVar("T")


class ModerationStorage(StoreMixin):
    """Moderation's methods of the store."""

    async def audited(
        self,
        entry: dict[str, Any],
        work: Callable[[AsyncConnection], Awaitable[T]],
    ) -> T:
        """Run ``work`` and add the audit ``entry`` (at, actor, action, subject, reason,
        until) in one transaction; what ``work`` returns."""

        async def both(conn: AsyncConnection) -> T:
            result = await work(conn)
            await queries.audit(conn, **entry)
            return result

        return await self._transact(both)

    async def last_audit_id(self) -> int:
        """The newest audit entry's number: it changes with every moderation action."""
        async with self._read() as conn:
            return await queries.last_audit_id(conn)

    async def audit_entries(self, limit: int = 100, subject: str | None = None) -> list[AuditEntry]:
        """The newest audit entries (about ``subject``, if given), newest first."""
        async with self._read() as conn:
            return await queries.audit_entries(conn, limit, subject)

    async def is_moderator(self, account_id: int) -> bool:
        """Whether the account may moderate."""
        async with self._read() as conn:
            return await queries.is_moderator(conn, account_id)

    async def sanctions_in_force(self, now: datetime) -> list[Sanction]:
        """Every ban and mute in force at ``now``."""
        async with self._read() as conn:
            return await queries.sanctions_in_force(conn, now)

    async def sanctions_of(self, subject: str) -> list[Sanction]:
        """Every sanction ever imposed on a name (folded) or a network, newest first."""
        async with self._read() as conn:
            return await queries.sanctions_of(conn, subject)

    async def chat_by(self, author: str, limit: int = 20) -> list[dict[str, Any]]:
        """The latest room chat lines of ``author``, newest first (room, seq, text, at)."""
        async with self._read() as conn:
            return await queries.chat_by(conn, author, limit)

    async def add_report(self, fields: dict[str, Any]) -> int:
        """Keep a player's report; its number."""
        return await self._transact(lambda conn: queries.add_report(conn, fields))

    async def reports(
        self, *, open_only: bool = True, limit: int = 100, subject: str | None = None
    ) -> list[Report]:
        """Open reports, oldest first (or all, newest first), of one name if given."""
        key = None if subject is None else subject.lower()
        async with self._read() as conn:
            return await queries.list_reports(
                conn, open_only=open_only, limit=limit, subject_key=key
            )

    async def open_reports(self) -> int:
        """How many reports wait for a moderator."""
        async with self._read() as conn:
            return await queries.open_reports(conn)

    async def block(self, account_id: int, name: str, at: datetime) -> None:
        """Keep a block of ``name`` by the account."""
        await self._transact(lambda conn: queries.block(conn, account_id, name, at))

    async def unblock(self, account_id: int, name: str) -> bool:
        """Forget a block; whether there was one."""
        return await self._transact(lambda conn: queries.unblock(conn, account_id, name))

    async def blocks_among(self, accounts: Mapping[str, int]) -> list[tuple[str, str]]:
        """The blocks kept by the accounts of ``accounts`` (name to id): pairs of the
        blocker's name and the blocked name (folded), in one query."""
        names = {account_id: name for name, account_id in accounts.items()}
        async with self._read() as conn:
            found = await queries.blocks_among(conn, sorted(names))
        return [(names[account_id], blocked) for account_id, blocked in found]

    async def blocked_by(self, account_id: int) -> list[str]:
        """The names the account has blocked."""
        async with self._read() as conn:
            return await queries.blocked_by(conn, account_id)
