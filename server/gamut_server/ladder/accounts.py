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

import re
import secrets
from dataclasses import dataclass
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from gamut_protocol.common import MAX_NAME_LENGTH, NAME_PATTERN
from gamut_protocol.errors import BAD_TOKEN, NAME_TAKEN, ErrorCode
from gamut_server.identity import RESERVED_NAME
from gamut_server.storage import Account

TOKEN_PREFIX: Final = "gamut_"
"""Every account token starts with this, so one is recognised when leaked."""

TOKEN_BYTES: Final = 32
"""Random bytes in a token."""

_NAME = re.compile(NAME_PATTERN)


class AccountNameError(ValueError):
    """A name that cannot be registered; the message says why."""


class SignInError(ValueError):
    """A ``hello`` may not use an account's name; ``code`` is the error to answer with."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        """``bad_token`` or ``name_taken``."""
        self.message = message
        """Why, for people."""


def new_token() -> str:
    """A fresh random account token."""
    return TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)


def check_name(name: str) -> str:
    """``name`` if it can be registered; raises :class:`AccountNameError` if not."""
    if not 1 <= len(name) <= MAX_NAME_LENGTH or not _NAME.match(name):
        raise AccountNameError(
            f"a name has 1 to {MAX_NAME_LENGTH} letters, digits, '_', '.' or '-', "
            "and does not start with '.' or '-'"
        )
    if RESERVED_NAME.match(name):
        raise AccountNameError(f"the name {name!r} belongs to the server's AI")
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


def check_sign_in(account: Account, token: str | None, hasher: TokenHasher) -> None:
    """Let a ``hello`` with ``token`` use ``account``'s name, or raise :class:`SignInError`."""
    name = account.name
    if token is None:
        raise SignInError(
            NAME_TAKEN, f"{name!r} is a registered account: send its token in the hello"
        )
    if account.revoked:
        raise SignInError(
            BAD_TOKEN, f"the token of {name!r} was revoked: its owner must have a new one issued"
        )
    if not hasher.verify(account.token_hash, token):
        raise SignInError(BAD_TOKEN, f"that is not the token of the account {name!r}")
