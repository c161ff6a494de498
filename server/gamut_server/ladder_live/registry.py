"""Registering accounts and reissuing or revoking their tokens, over the store."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from gamut_server.core.identity import NameRefusedError, Names
from gamut_server.ladder.accounts import (
    AccountNameError,
    SignInError,
    TokenHasher,
    check_name,
    check_sign_in,
)
from gamut_server.storage import DuplicateAccountError, Store


class AccountTakenError(ValueError):
    """The name is registered already, or a guest holds it now."""


class UnknownAccountError(LookupError):
    """No account has this name."""


class AccountRegistry:
    """Accounts: register a name (its token is returned once), reissue, revoke."""

    def __init__(self, store: Store, hasher: TokenHasher, names: Names) -> None:
        """Accounts kept in ``store``; ``names`` are the guest names in use."""
        self.store = store
        self.hasher = hasher
        self.names = names
        self.on_token_withdrawn: Callable[[str, str], None] = lambda name, why: None
        """Called with the account's name and a sentence when its token stops working
        (revoked or replaced), to end the sessions signed in with it."""
        self.hold_name: Callable[[str], Awaitable[None]] = _hold_nothing
        """Keeps guests of other nodes off a name about to be registered; raises
        :class:`NameRefusedError` if a guest holds it there (a cluster sets it)."""

    async def register(self, name: str) -> str:
        """Register ``name``; returns its token (shown this once, never stored).

        Raises :class:`AccountNameError` for a bad name, :class:`AccountTakenError` for a
        registered one or one a guest holds (connected, away, or seated in a game).
        """
        check_name(name)
        guest_playing = (
            f"a guest called {name!r} is playing under this name; try again once they leave"
        )
        if self.names.guest_bound(name):
            raise AccountTakenError(guest_playing)
        try:
            await self.hold_name(name)
        except NameRefusedError:
            raise AccountTakenError(guest_playing) from None
        with self.names.registering(name):
            issued = await asyncio.to_thread(self.hasher.issue)
            try:
                await self.store.create_account(name, issued.token_hash)
            except DuplicateAccountError:
                raise AccountTakenError(f"the name {name!r} is already registered") from None
            await self.store.forget_guest_claim(name)
        return issued.token

    async def reissue(self, name: str, token: str) -> str:
        """A new token for ``name``, proved by its current one; the old one stops working.

        Raises :class:`UnknownAccountError` or :class:`SignInError`.
        """
        await self._prove(name, token)
        issued = await asyncio.to_thread(self.hasher.issue)
        await self.store.reissue_account(name, issued.token_hash)
        self.on_token_withdrawn(name, f"the token of {name!r} was replaced by a new one")
        return issued.token

    async def revoke(self, name: str, token: str) -> None:
        """Withdraw ``name``'s token, proved by itself: nobody can sign in as ``name`` until
        the server's operator issues a new one."""
        await self._prove(name, token)
        await self.store.revoke_account(name)
        self.on_token_withdrawn(name, f"the token of {name!r} was revoked")

    async def operator_reissue(self, name: str) -> str:
        """A new token for ``name`` without the old one (for the server's operator)."""
        if await self.store.account(name) is None:
            raise UnknownAccountError(f"no account is called {name!r}")
        issued = await asyncio.to_thread(self.hasher.issue)
        await self.store.reissue_account(name, issued.token_hash)
        self.on_token_withdrawn(name, f"the token of {name!r} was replaced by a new one")
        return issued.token

    async def _prove(self, name: str, token: str) -> None:
        """Check ``token`` against ``name``'s account."""
        account = await self.store.account(name)
        if account is None:
            raise UnknownAccountError(f"no account is called {name!r}")
        await asyncio.to_thread(check_sign_in, account, token, self.hasher)


__all__ = [
    "AccountNameError",
    "AccountRegistry",
    "AccountTakenError",
    "SignInError",
    "UnknownAccountError",
]


async def _hold_nothing(name: str) -> None:
    """A server alone has no other node to keep off a name."""
