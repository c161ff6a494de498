"""Server-measured game clocks, driven by the caller's ``now_ms``.

A :class:`GameClock` times each turn from the moment it starts (the game's start or the
previous move) to the moment the move is accepted, as the server sees both. It never
reads the time: every method takes ``now_ms`` from whatever monotonic source the
caller uses. Three time controls:

- ``untimed``: nothing runs out; turns are still timed, for the think times shown.
- ``per_move``: every move must come within ``move_ms``; the limit resets each move.
- ``fischer``: a total per side, plus ``increment_ms`` after each of that side's moves.

The lag allowance: a side flags only once its turn has run ``lag_allowance_ms`` past
its remaining time, and a move that arrives within that allowance is accepted with the
clock at zero (then the increment). So a move sent on time but slowed by the network
still counts.
"""

from __future__ import annotations

from typing import Final

from gamut_protocol import Clocks, Fischer, PerMove, Side, TimeControl, Untimed
from gamut_protocol.common import MAX_MILLIS
from gamut_server.records.games import Clock

DEFAULT_LAG_ALLOWANCE_MS: Final = 500
"""How far past zero a clock may run before it flags, by default."""


def initial_remaining(control: TimeControl) -> tuple[int, int] | None:
    """Each side's time at the start under ``control``; ``None`` when untimed."""
    if isinstance(control, PerMove):
        return (control.move_ms, control.move_ms)
    if isinstance(control, Fischer):
        return (control.initial_ms, control.initial_ms)
    return None


class GameClock:
    """Both sides' clocks and the current turn's timing.

    The clock is *stopped* until :meth:`start`, *running* for the side to move
    afterwards, *paused* between :meth:`pause` and :meth:`resume` (the turn's time so
    far is kept), and stopped for good by :meth:`stop`.
    """

    def __init__(
        self,
        control: TimeControl | None = None,
        *,
        lag_allowance_ms: int = DEFAULT_LAG_ALLOWANCE_MS,
        remaining: tuple[int, int] | None = None,
    ) -> None:
        """Clocks for ``control``, full or at the ``remaining`` times given (a restore)."""
        self.control: TimeControl = control if control is not None else Untimed()
        """The time control."""
        self.lag_allowance_ms = lag_allowance_ms
        """How far past zero a side's time may run before it flags."""
        start = initial_remaining(self.control)
        if start is not None and remaining is not None:
            start = (max(0, remaining[0]), max(0, remaining[1]))
        self._base = start
        self._to_move = 0
        self._used_ms = 0
        self._since: int | None = None
        self._stopped = False

    def copied(self) -> GameClock:
        """A copy of these clocks, to go back to (cheaper than :func:`copy.copy`)."""
        twin = object.__new__(GameClock)
        twin.__dict__.update(self.__dict__)
        return twin

    @property
    def timed(self) -> bool:
        """Whether a side can run out of time."""
        return self._base is not None

    @property
    def running(self) -> Side | None:
        """The side whose time is running now, or ``None`` (stopped or paused)."""
        if self._since is None:
            return None
        return 0 if self._to_move == 0 else 1

    def start(self, side: int, now_ms: int) -> None:
        """Start ``side``'s turn at ``now_ms`` (the game's start, or after a restore)."""
        self._to_move = side
        self._used_ms = 0
        self._since = now_ms
        self._stopped = False

    def elapsed(self, now_ms: int) -> int:
        """How long the current turn has run, pauses left out."""
        if self._since is None:
            return self._used_ms
        return self._used_ms + max(0, now_ms - self._since)

    def remaining(self, side: int, now_ms: int) -> int | None:
        """``side``'s time left at ``now_ms``, never below 0; ``None`` when untimed."""
        if self._base is None:
            return None
        return self._left(side, now_ms)

    def _left(self, side: int, now_ms: int) -> int:
        """``side``'s time left at ``now_ms`` on a timed clock."""
        assert self._base is not None
        left = self._base[side]
        if side == self._to_move and not self._stopped:
            left -= self.elapsed(now_ms)
        return min(MAX_MILLIS, max(0, left))

    def press(self, now_ms: int) -> int:
        """The side to move has moved at ``now_ms``: the other side's turn starts.

        Returns the mover's think time. The mover's clock is charged (and gets its
        increment, or a fresh per-move limit); the caller checks :meth:`flagged` first.
        """
        think_ms = self.elapsed(now_ms)
        mover = self._to_move
        if self._base is not None:
            after = self._after_move(self._base[mover], think_ms)
            self._base = (after, self._base[1]) if mover == 0 else (self._base[0], after)
        running = self._since is not None
        self._to_move = 1 if mover == 0 else 0
        self._used_ms = 0
        self._since = now_ms if running else None
        return think_ms

    def _after_move(self, before_ms: int, think_ms: int) -> int:
        """The mover's time after a move that took ``think_ms`` with ``before_ms`` left."""
        if isinstance(self.control, PerMove):
            return self.control.move_ms
        left = max(0, before_ms - think_ms)
        if isinstance(self.control, Fischer):
            left += self.control.increment_ms
        return left

    def pause(self, now_ms: int) -> None:
        """Stop the running time, keeping the turn's time so far (a server shutdown)."""
        if self._since is not None:
            self._used_ms = self.elapsed(now_ms)
            self._since = None

    def resume(self, now_ms: int) -> None:
        """Run the turn's time again from ``now_ms`` after a :meth:`pause`."""
        if self._since is None and not self._stopped:
            self._since = now_ms

    def stop(self, now_ms: int) -> None:
        """The game is over: charge the side to move for its turn and stop for good."""
        if self._base is not None and not self._stopped:
            left = max(0, self._base[self._to_move] - self.elapsed(now_ms))
            side = self._to_move
            self._base = (left, self._base[1]) if side == 0 else (self._base[0], left)
        self._used_ms = 0
        self._since = None
        self._stopped = True

    def deadline_ms(self) -> int | None:
        """The ``now_ms`` at which the running side flags; ``None`` if none can."""
        if self._base is None or self._since is None:
            return None
        left = self._base[self._to_move] - self._used_ms
        return self._since + left + self.lag_allowance_ms

    def flagged(self, now_ms: int) -> Side | None:
        """The side whose time has run out (past the lag allowance) at ``now_ms``, if any."""
        deadline = self.deadline_ms()
        if deadline is None or now_ms < deadline:
            return None
        return 0 if self._to_move == 0 else 1

    def remaining_pair(self, now_ms: int) -> tuple[int, int] | None:
        """Both sides' time left at ``now_ms``; ``None`` when untimed."""
        if self._base is None:
            return None
        return (self._left(0, now_ms), self._left(1, now_ms))

    def clocks(self, now_ms: int) -> Clocks | None:
        """Both clocks for a message sent at ``now_ms``; ``None`` when untimed."""
        pair = self.remaining_pair(now_ms)
        if pair is None:
            return None
        return Clocks(remaining_ms=pair, running=self.running)

    def stored(self, now_ms: int) -> Clock:
        """The clocks at ``now_ms`` as the store keeps them."""
        return Clock(remaining_ms=self.remaining_pair(now_ms), to_move=self._to_move)
