"""Accounts: one registered by name with a token's or a password's hash, looked up by
name or id, and its token withdrawn.

:class:`AccountStorage` is a mixin of the :class:`~gamut_server.storage.Store`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.exc import IntegrityError

from gamut_protocol.common import name_key
from gamut_server.records.games import Account
from gamut_server.storage import reads, writes
from gamut_server.storage.errors import DuplicateAccountError
from gamut_server.storage.mixin import StoreMixin, aware_now


class AccountStorage(StoreMixin):
    """The accounts' rows."""

    async def create_account(
        self,
        name: str,
        token_hash: str | None = None,
        *,
        password_hash: str | None = None,
        at: datetime | None = None,
    ) -> Account:
        """Register ``name`` with a token's hash, a password's, or both; raises
        :class:`DuplicateAccountError` if it is taken (whatever its case)."""
        at = aware_now(at)
        try:
            account_id = await self._transact(
                lambda conn: writes.insert_account(conn, name, token_hash, password_hash, at)
            )
        except IntegrityError as error:
            raise DuplicateAccountError(name) from error
        return Account(
            account_id,
            name,
            token_hash,
            created_at=at,
            revoked=False,
            password_hash=password_hash,
            name_key=name_key(name),
        )

    async def account(self, name: str) -> Account | None:
        """The account called ``name`` whatever its case, or ``None``."""
        async with self._read() as conn:
            return await reads.account(conn, name)

    async def account_by_id(self, account_id: int) -> Account | None:
        """The account with id ``account_id``, or ``None``."""
        async with self._read() as conn:
            return await reads.account_by_id(conn, account_id)

    async def revoke_account(self, name: str) -> bool:
        """Withdraw an account's token; ``False`` if there is no such account."""
        return await self._transact(lambda conn: writes.revoke_account(conn, name))
