"""Accounts: a name, and a token shown once and kept only as an argon2 hash.

A bot author registers a name and is given a random token, once; the server keeps its
argon2id hash (argon2-cffi) and never the token. A ``hello`` that names an account
must carry its token. A token can be revoked (the account can no longer sign in) and
reissued (a new token replaces the old one). Guests (names without an account) play
casual games but are never rated.

The tokens are long random strings, so the hashing parameters only need to slow down
a stolen database a little; they are kept modest because every sign-in verifies one.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from gamut_server.people.names import account_name_refusal

TOKEN_PREFIX: Final = "gamut_"
"""Every account token starts with this, so one is recognised when leaked."""

TOKEN_BYTES: Final = 32
"""Random bytes in a token."""


class AccountNameError(ValueError):
    """A name that cannot be registered; the message says why."""


def new_token() -> str:
    """A fresh random account token."""
    return TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)


def check_name(name: str) -> str:
    """``name`` if it can be registered; raises :class:`AccountNameError` if not (see
    :func:`gamut_server.people.names.account_name_refusal`)."""
    refusal = account_name_refusal(name)
    if refusal is not None:
        raise AccountNameError(refusal)
    return name


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A token just made: shown once to its owner, stored only as ``token_hash``."""

    token: str
    """The token itself."""
    token_hash: str
    """Its argon2 hash, which the store keeps."""


class TokenHasher:
    """Hashes and verifies account tokens with argon2id."""

    def __init__(self, *, time_cost: int = 2, memory_cost: int = 19_456) -> None:
        """A hasher with these argon2 costs (``memory_cost`` in KiB, one lane)."""
        self._hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_cost, parallelism=1)

    def issue(self) -> IssuedToken:
        """A new token and its hash."""
        token = new_token()
        return IssuedToken(token, self._hasher.hash(token))

    def verify(self, token_hash: str | None, token: str) -> bool:
        """Whether ``token`` is the one ``token_hash`` was made from (never, without one)."""
        if token_hash is None:
            return False
        try:
            return self._hasher.verify(token_hash, token)
        except (VerificationError, InvalidHashError):
            return False
