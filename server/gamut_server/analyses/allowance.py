"""How many analyses each address and each account may ask for: a burst, then a rate.

An analysis takes a worker minutes of CPU, so new ones are limited per client address
and, for a request signed with an account's token, per account too (so an account
cannot spread its requests over many addresses). Asking for an analysis that exists or
is under way costs nothing. Counted per server, like the other per-address limits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from gamut_server.rooms.limits import Rate, TokenBucket

ADDRESS_RATE: Final = Rate(capacity=4, per_second=1 / 300)
"""New analyses from one address: four at once, then one every five minutes."""

ACCOUNT_RATE: Final = Rate(capacity=8, per_second=1 / 150)
"""New analyses for one account: eight at once, then one every two and a half minutes."""

TRACKED: Final = 10_000
"""Addresses or accounts remembered before those with a full allowance are forgotten."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a new analysis is not allowed yet."""

    who: str
    """``your address`` or ``the account NAME``."""
    rate: Rate
    """The allowance it has used up."""
    wait_s: int
    """Seconds until the next analysis is allowed."""

    def sentence(self) -> str:
        """The refusal for people."""
        every = round(1 / self.rate.per_second)
        return (
            f"{self.who} has asked for {self.rate.capacity:g} analyses lately, the most "
            f"allowed at once (then one every {every} seconds); the next is allowed in "
            f"{max(1, self.wait_s)} seconds"
        )


class Allowances:
    """One token bucket per address or account, driven by the caller's ``now_ms``."""

    def __init__(self, rate: Rate) -> None:
        """Every allowance full."""
        self.rate = rate
        self._buckets: dict[str, TokenBucket] = {}

    def wait_ms(self, key: str, now_ms: int) -> int:
        """Milliseconds until ``key`` may have another analysis (0: now)."""
        bucket = self._buckets.get(key)
        return 0 if bucket is None else bucket.wait_ms(now_ms)

    def spend(self, key: str, now_ms: int) -> None:
        """Count one new analysis for ``key``."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= TRACKED:
                self._forget_full(now_ms)
            bucket = self._buckets[key] = self.rate.bucket(now_ms)
        bucket.allow(now_ms)

    def _forget_full(self, now_ms: int) -> None:
        full = [k for k, b in self._buckets.items() if b.tokens(now_ms) >= b.capacity]
        for key in full:
            del self._buckets[key]


class AnalysisAllowances:
    """The per-address and per-account allowances of one server."""

    def __init__(self, per_address: Rate = ADDRESS_RATE, per_account: Rate = ACCOUNT_RATE) -> None:
        """Every allowance full."""
        self.addresses = Allowances(per_address)
        self.accounts = Allowances(per_account)

    def check(self, address: str, account: str | None, now_ms: int) -> Refusal | None:
        """Why ``address`` (signed in as ``account``, if any) may not start an analysis now."""
        wait = self.addresses.wait_ms(address, now_ms)
        if wait:
            return Refusal("your address", self.addresses.rate, wait // 1000)
        if account is not None and (wait := self.accounts.wait_ms(account, now_ms)):
            return Refusal(f"the account {account}", self.accounts.rate, wait // 1000)
        return None

    def spend(self, address: str, account: str | None, now_ms: int) -> None:
        """Count a new analysis against ``address`` and ``account``."""
        self.addresses.spend(address, now_ms)
        if account is not None:
            self.accounts.spend(account, now_ms)
