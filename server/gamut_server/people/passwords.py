"""People's passwords: what a password may be, and argon2id hashes made in the pool.

A password is kept only as its argon2id hash (argon2-cffi, with OWASP's minimum: 19 MiB,
two passes, one lane), made and checked in the :class:`~.hashing.HashingPool`. It is
never logged, stored, or sent back. Checking a password for a name that has none costs
the same hash, so the time taken tells nothing.
"""

from __future__ import annotations

from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from gamut_protocol.common import name_key
from gamut_server.people.hashing import HashingPool

MIN_PASSWORD_LENGTH: Final = 8
"""The fewest characters a password has."""

MAX_PASSWORD_LENGTH: Final = 256
"""The most characters a password has (argon2 takes any length; a bound keeps requests
small)."""

TIME_COST: Final = 2
"""argon2id passes."""

MEMORY_COST_KIB: Final = 19_456
"""argon2id memory, in KiB."""


def password_refusal(password: str, name: str) -> str | None:
    """Why ``password`` cannot be the password of ``name``, or ``None`` if it can."""
    if len(password) < MIN_PASSWORD_LENGTH:
        return f"a password has at least {MIN_PASSWORD_LENGTH} characters"
    if len(password) > MAX_PASSWORD_LENGTH:
        return f"a password has at most {MAX_PASSWORD_LENGTH} characters"
    if name_key(password) == name_key(name):
        return "a password cannot be the name itself"
    if not password.isprintable():
        return "a password cannot hold control characters or line breaks"
    return None


class Passwords:
    """Hashes and checks passwords in a hashing pool."""

    def __init__(self, pool: HashingPool) -> None:
        """Passwords hashed in ``pool``."""
        self.pool = pool
        """Where the hashing runs."""
        self._hasher = PasswordHasher(
            time_cost=TIME_COST, memory_cost=MEMORY_COST_KIB, parallelism=1
        )
        self._decoy = self._hasher.hash("a password nobody has")

    async def hash(self, password: str) -> str:
        """The hash to keep for ``password``."""
        return await self.pool.run(lambda: self._hasher.hash(password))

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``password_hash`` was made from; without a hash,
        ``False`` after the same work."""
        stored = password_hash if password_hash is not None else self._decoy
        matches = await self.pool.run(lambda: self._check(stored, password))
        return matches and password_hash is not None

    def _check(self, password_hash: str, password: str) -> bool:
        """argon2's verdict, without raising."""
        try:
            return self._hasher.verify(password_hash, password)
        except (VerificationError, InvalidHashError):
            return False
