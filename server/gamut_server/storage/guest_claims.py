"""Guest names' token hashes, kept so that a seated guest's claim survives a restart.

A guest's token is never stored, only the hash the hub makes of it (a salted
HMAC-SHA256, in the text form of :class:`gamut_server.core.identity.TokenDigest`). One row
per name; a new guest binding the name replaces it, and registering the name as an
account deletes it. :class:`GuestClaimStorage` is a mixin of the
:class:`~gamut_server.storage.Store`.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime

from sqlalchemy import Column, String, Table, delete, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_server.storage.mixin import StoreMixin
from gamut_server.storage.schema import UTCDateTime, metadata

guest_claims = Table(
    "guest_claims",
    metadata,
    Column("name", String, primary_key=True),
    Column("token_hash", String, nullable=False),
    Column("claimed_at", UTCDateTime, nullable=False),
)
"""The hash of the token each guest name was last bound with."""


class GuestClaimStorage(StoreMixin):
    """The store's methods for guests' token hashes."""

    async def save_guest_claim(self, name: str, token_hash: str) -> None:
        """Keep ``token_hash`` as the hash of guest ``name``'s token (replacing any)."""
        at = datetime.now(UTC)

        async def save(conn: AsyncConnection) -> None:
            await conn.execute(delete(guest_claims).where(guest_claims.c.name == name))
            row = {"name": name, "token_hash": token_hash, "claimed_at": at}
            await conn.execute(insert(guest_claims).values(row))

        await self._transact(save)

    async def forget_guest_claim(self, name: str) -> None:
        """Drop guest ``name``'s token hash (the name became an account)."""
        statement = delete(guest_claims).where(guest_claims.c.name == name)
        await self._transact(lambda conn: conn.execute(statement))

    async def guest_claim_hashes(self, names: Collection[str]) -> dict[str, str]:
        """The stored token hash of each of ``names`` that has one."""
        if not names:
            return {}
        statement = select(guest_claims.c.name, guest_claims.c.token_hash).where(
            guest_claims.c.name.in_(sorted(names))
        )
        async with self._read() as conn:
            rows = (await conn.execute(statement)).all()
        return {row.name: row.token_hash for row in rows}
