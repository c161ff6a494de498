"""Token-bucket rate limits, driven by the caller's ``now_ms``.

A bucket holds up to ``capacity`` tokens and gains ``per_second`` tokens a second;
each message spends one. A burst of ``capacity`` messages passes at once, then the
sender is held to ``per_second``. Nothing here reads the time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Rate:
    """A limit: a burst of ``capacity`` messages, then ``per_second`` a second."""

    capacity: float
    """The largest burst."""
    per_second: float
    """The sustained rate."""

    def bucket(self, now_ms: int) -> TokenBucket:
        """A full bucket for this rate, starting at ``now_ms``."""
        return TokenBucket(self.capacity, self.per_second, now_ms)


MESSAGE_RATE: Final = Rate(capacity=40, per_second=20)
"""Default limit on all messages from one connection."""

CHAT_RATE: Final = Rate(capacity=5, per_second=0.5)
"""Default limit on chat lines from one connection: a burst of 5, then one every 2 s."""


_EPSILON: Final = 1e-9
"""Slack for rounding when comparing fractional tokens."""


class TokenBucket:
    """One sender's allowance."""

    def __init__(self, capacity: float, per_second: float, now_ms: int = 0) -> None:
        """A full bucket at ``now_ms``."""
        if capacity < 1 or per_second <= 0:
            raise ValueError("a bucket holds at least one token and refills at a positive rate")
        self.capacity = capacity
        """The most tokens the bucket holds."""
        self.per_second = per_second
        """Tokens gained per second."""
        self._tokens = float(capacity)
        self._at_ms = now_ms

    def tokens(self, now_ms: int) -> float:
        """The tokens available at ``now_ms``."""
        gained = max(0, now_ms - self._at_ms) * self.per_second / 1000
        return min(self.capacity, self._tokens + gained)

    def allow(self, now_ms: int, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens at ``now_ms`` if there are enough; whether there were."""
        available = self.tokens(now_ms)
        if available + _EPSILON < cost:
            return False
        self._tokens = max(0.0, available - cost)
        self._at_ms = max(self._at_ms, now_ms)
        return True

    def wait_ms(self, now_ms: int, cost: float = 1.0) -> int:
        """How long from ``now_ms`` until ``cost`` tokens are there (0 if they are now)."""
        missing = cost - self.tokens(now_ms)
        if missing <= _EPSILON:
            return 0
        return int(-(-missing * 1000 // self.per_second))


class ConnectionLimits:
    """The limits one connection is held to: all messages, and chat lines on top."""

    def __init__(self, now_ms: int, messages: Rate = MESSAGE_RATE, chat: Rate = CHAT_RATE) -> None:
        """Full allowances at ``now_ms``."""
        self.messages = messages.bucket(now_ms)
        """Every message spends from this."""
        self.chat = chat.bucket(now_ms)
        """Chat lines also spend from this."""

    def allow(self, message_type: str, now_ms: int) -> bool:
        """Whether a message of ``message_type`` may pass now (it spends if so)."""
        if not self.messages.allow(now_ms):
            return False
        return message_type != "chat" or self.chat.allow(now_ms)
