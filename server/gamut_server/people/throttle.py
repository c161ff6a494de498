"""How often a password may be tried: per client address, and per account.

Every sign-in with a password spends from its address's ``sign_ins`` allowance (see
:mod:`gamut_server.edge.addresses`) before anything is hashed. Every wrong password also
spends from the account's own allowance (:data:`PASSWORD_FAILURE_RATE`: ten, then one
every 30 seconds), so guessing one account's password from many addresses is as slow as
from one. A refused attempt is answered at once, without hashing, with how long to wait.
A session already signed in is never touched, so the account's owner keeps playing
while someone guesses.
"""

from __future__ import annotations

from typing import Final

from gamut_protocol.common import name_key
from gamut_server.rooms.limits import Rate, TokenBucket

PASSWORD_FAILURE_RATE: Final = Rate(capacity=10, per_second=1 / 30)
"""Default limit on wrong passwords for one account: 10, then one every 30 seconds."""

TRACKED_ACCOUNTS: Final = 10_000
"""Accounts remembered before those whose allowance is full again are forgotten."""


def wait_sentence(wait_ms: int) -> str:
    """ "wait N seconds" for a wait of ``wait_ms``."""
    seconds = max(1, -(-wait_ms // 1000))
    return f"wait {seconds} second{'s' if seconds != 1 else ''}"


class PasswordFailures:
    """Wrong passwords per account, driven by the caller's ``now_ms``."""

    def __init__(self, rate: Rate = PASSWORD_FAILURE_RATE) -> None:
        """No wrong password yet."""
        self.rate = rate
        """The allowance of each account."""
        self._buckets: dict[str, TokenBucket] = {}

    def refusal(self, name: str, now_ms: int) -> str | None:
        """Why no password may be tried for ``name`` now, or ``None`` if one may."""
        bucket = self._buckets.get(name_key(name))
        if bucket is None:
            return None
        wait = bucket.wait_ms(now_ms)
        if not wait:
            return None
        return f"too many wrong passwords for {name!r}: {wait_sentence(wait)} and try again"

    def failed(self, name: str, now_ms: int) -> None:
        """A wrong password was tried for ``name``."""
        key = name_key(name)
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= TRACKED_ACCOUNTS:
                self._forget_full(now_ms)
            bucket = self._buckets[key] = self.rate.bucket(now_ms)
        bucket.allow(now_ms)

    def _forget_full(self, now_ms: int) -> None:
        """Forget the accounts whose allowance is full again."""
        full = [key for key, b in self._buckets.items() if b.tokens(now_ms) >= b.capacity]
        for key in full:
            del self._buckets[key]
