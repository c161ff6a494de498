"""What one player receives: a few challenges waiting at once, and an allowance of new
ones whoever sends them. Pure, driven by the caller's ``now_ms``."""

from __future__ import annotations

from gamut_server.rooms.limits import Rate, TokenBucket
from gamut_server.rooms.refusal import RefusalError


class ChallengeAllowance:
    """Every player's allowance of challenges received."""

    def __init__(self, rate: Rate, most_waiting: int) -> None:
        """``rate`` challenges received, at most ``most_waiting`` waiting at once."""
        self.rate = rate
        self.most_waiting = most_waiting
        self._received: dict[str, TokenBucket] = {}

    def receive(self, name: str, waiting: int, now_ms: int) -> None:
        """Count one more challenge to ``name``, who has ``waiting`` already; a
        :class:`RefusalError` if it is one too many."""
        if waiting >= self.most_waiting:
            raise RefusalError(
                "rate_limited",
                f"{name} has {self.most_waiting} challenges waiting already: try again later",
            )
        bucket = self._received.get(name)
        if bucket is None:
            bucket = self._received[name] = self.rate.bucket(now_ms)
        if not bucket.allow(now_ms):
            seconds = -(-bucket.wait_ms(now_ms) // 1000)
            raise RefusalError(
                "rate_limited",
                f"{name} has been challenged too often lately: try again in {seconds} seconds",
            )

    def forget(self, name: str) -> None:
        """``name`` left: their allowance starts afresh when they come back."""
        self._received.pop(name, None)
