"""Token-bucket rate limits, driven by the caller's ``now_ms``.

A bucket holds up to ``capacity`` tokens and gains ``per_second`` tokens a second;
each message spends one. A burst of ``capacity`` messages passes at once, then the
sender is held to ``per_second``. Nothing here reads the time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, TypeAlias


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

STRIKE_RATE: Final = Rate(capacity=30, per_second=1)
"""Default tolerance of refused frames (not JSON, not a message, over a limit) from one
connection: 30 at once, then one a second; past that the connection is closed."""

ANSWER_RATE: Final = Rate(capacity=5, per_second=1)
"""Default limit on the errors answering one connection's refused frames; the others
are dropped without an answer."""

CHALLENGE_RATE: Final = Rate(capacity=10, per_second=1 / 6)
"""Default limit on the challenges one player receives, whoever sends them: 10 at once,
then one every 6 seconds."""

Verdict: TypeAlias = Literal["answer", "quiet", "expel"]
"""What to do with a refused frame: say why, drop it silently, or close the connection."""


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
    """The limits one connection is held to: every frame, chat lines on top, and how many
    refused frames it may send (and have answered) before it is closed."""

    def __init__(
        self,
        now_ms: int,
        messages: Rate = MESSAGE_RATE,
        chat: Rate = CHAT_RATE,
        strikes: Rate = STRIKE_RATE,
        answers: Rate = ANSWER_RATE,
    ) -> None:
        """Full allowances at ``now_ms``."""
        self.messages = messages.bucket(now_ms)
        """Every frame spends from this, before it is even parsed."""
        self.chat = chat.bucket(now_ms)
        """Chat lines also spend from this."""
        self.strikes = strikes.bucket(now_ms)
        """Every refused frame spends from this; once empty, the connection is closed."""
        self.answers = answers.bucket(now_ms)
        """Every error answering a refused frame spends from this."""

    def allow(self, message_type: str, now_ms: int) -> bool:
        """Whether a message of ``message_type`` may pass now (it spends if so)."""
        if not self.messages.allow(now_ms):
            return False
        return message_type != "chat" or self.chat.allow(now_ms)

    def allow_frame(self, now_ms: int) -> bool:
        """Whether one more frame, whatever it holds, fits the budget (it spends if so)."""
        return self.messages.allow(now_ms)

    def allow_chat(self, now_ms: int) -> bool:
        """Whether one more chat line fits the chat limit (it spends if so)."""
        return self.chat.allow(now_ms)

    def refuse(self, now_ms: int) -> Verdict:
        """Count one refused frame: answer it, drop it quietly, or close the connection."""
        if not self.strikes.allow(now_ms):
            return "expel"
        return "answer" if self.answers.allow(now_ms) else "quiet"
