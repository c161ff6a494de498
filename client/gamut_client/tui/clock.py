"""Both clocks of a room, counted down locally between the server's readings.

The server sends each side's remaining milliseconds and whose clock runs, as they
were when the message left it. :class:`ClockState` remembers when that reading
arrived (on the caller's clock, ``time.monotonic()`` in the application) and works
out what each clock shows at any later moment, so the display ticks without a
message per second and corrects itself on every message.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamut_protocol import Clocks, Fischer, PerMove, Side, TimeControl, Untimed

LOW_TIME_MS = 10_000
"""Below this a clock shows tenths of a second, and is drawn as running low."""


@dataclass(frozen=True, slots=True)
class ClockState:
    """The server's last clock reading and when it arrived."""

    clocks: Clocks
    """Both clocks as the server sent them."""
    received_at: float
    """When the reading arrived, in seconds on the caller's monotonic clock."""

    def remaining_ms(self, side: Side, now: float) -> int:
        """Milliseconds ``side`` has left at ``now`` (never below zero)."""
        elapsed = max(0, round((now - self.received_at) * 1000))
        return self.clocks.remaining(side, elapsed)

    @property
    def running(self) -> Side | None:
        """The side whose clock runs, or ``None`` while both are stopped."""
        return self.clocks.running


def format_clock(milliseconds: int) -> str:
    """A clock reading for people: ``1:05:03``, ``4:59``, or ``9.4`` under ten seconds."""
    milliseconds = max(0, milliseconds)
    if milliseconds < LOW_TIME_MS:
        return f"{milliseconds // 1000}.{milliseconds % 1000 // 100}"
    seconds = milliseconds // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


def describe_time_control(control: TimeControl) -> str:
    """A time control in a few words: ``untimed``, ``5 s a move``, ``5+2 min``."""
    if isinstance(control, Untimed):
        return "untimed"
    if isinstance(control, PerMove):
        return f"{_seconds(control.move_ms)} s a move"
    assert isinstance(control, Fischer)
    return f"{_minutes(control.initial_ms)} min + {_seconds(control.increment_ms)} s"


def _seconds(milliseconds: int) -> str:
    """Milliseconds as seconds, without a needless decimal point."""
    return f"{milliseconds / 1000:g}"


def _minutes(milliseconds: int) -> str:
    """Milliseconds as minutes, without a needless decimal point."""
    return f"{milliseconds / 60_000:g}"
