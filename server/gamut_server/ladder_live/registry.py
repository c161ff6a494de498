"""Registering bots' accounts and reissuing or revoking their tokens, over the store.

The names follow the rules of every account (:class:`~gamut_server.people.accounts.
AccountBook`): one owner whatever the case, none of the server's own names.
"""

from __future__ import annotations

from collections.abc import Callable

from gamut_server.people.accounts import (
    AccountBook,
    AccountNameError,
    AccountTakenError,
    Attempt,
    SignInError,
    UnknownAccountError,
)
from gamut_server.storage import Account


class AccountRegistry:
    """Bots' accounts: register a name (its token is returned once), reissue, revoke."""

    def __init__(self, book: AccountBook) -> None:
        """Accounts kept by ``book``."""
        self.book = book
        self.on_token_withdrawn: Callable[[str, str], None] = lambda name, why: None
        """Called with the account's name and a sentence when its token stops working
        (revoked or replaced), to end the sessions signed in with it."""

    async def register(self, name: str) -> str:
        """Register ``name``; returns its token (shown this once, never stored).

        Raises :class:`AccountNameError` for a bad name, :class:`AccountTakenError` for a
        registered one (whatever its case) or one a guest holds (connected, away, or
        seated in a game).
        """
        issued = await self.book.pool.run(self.book.tokens.issue)
        await self.book.create(name, token_hash=issued.token_hash)
        return issued.token

    async def reissue(self, name: str, token: str, attempt: Attempt) -> str:
        """A new token for ``name``, proved by its current one; the old one stops working.

        Raises :class:`UnknownAccountError` or :class:`SignInError`.
        """
        account = await self.prove(name, token, attempt)
        return await self._replace_token(account)

    async def revoke(self, name: str, token: str, attempt: Attempt) -> None:
        """Withdraw ``name``'s token, proved by itself: nobody can sign in with it until the
        server's operator issues a new one."""
        account = await self.prove(name, token, attempt)
        await self.book.store.revoke_account(account.name)
        self.on_token_withdrawn(account.name, f"the token of {account.name!r} was revoked")

    async def operator_reissue(self, name: str) -> str:
        """A new token for ``name`` without the old one (for the server's operator)."""
        account = await self.book.store.account(name)
        if account is None:
            raise UnknownAccountError(f"no account is called {name!r}")
        return await self._replace_token(account)

    async def _replace_token(self, account: Account) -> str:
        """Give ``account`` a new token; the old one stops working."""
        issued = await self.book.pool.run(self.book.tokens.issue)
        await self.book.store.reissue_account(account.name, issued.token_hash)
        self.on_token_withdrawn(
            account.name, f"the token of {account.name!r} was replaced by a new one"
        )
        return issued.token

    async def prove(self, name: str, token: str, attempt: Attempt) -> Account:
        """``name``'s account, if ``token`` is its token."""
        account = await self.book.store.account(name)
        if account is None:
            raise UnknownAccountError(f"no account is called {name!r}")
        await self.book.check_token(account, token, attempt)
        return account


__all__ = [
    "AccountNameError",
    "AccountRegistry",
    "AccountTakenError",
    "SignInError",
    "UnknownAccountError",
]
