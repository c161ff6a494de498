"""Redrawing at a bounded rate, however fast messages arrive.

A busy server sends the lobby dozens of ``room_updated`` and ``presence`` messages a
second. Applying one to the models is cheap; drawing is not, and drawing the lobby after
every message let a backlog hold the event loop so long that key presses waited behind
it. :class:`RedrawThrottle` merges the :class:`~gamut_client.tui.session.Update` of
every message received since the last redraw and draws them together: as soon as the
events already queued (key presses among them) are handled when the last redraw is at
least an interval old, else when the interval is up. The application throttles the
lobby's redraws; a game's own moves are drawn at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from gamut_client.tui.session import Update

REDRAW_INTERVAL: Final = 0.1
"""Seconds between two redraws, at least: ten a second."""

Schedule = Callable[[float, Callable[[], None]], None]
"""Calls a function after a delay in seconds (0: as soon as queued events are handled)."""


def merge(first: Update, second: Update) -> Update:
    """One update saying everything ``first`` and then ``second`` changed."""
    return Update(
        lobby=first.lobby or second.lobby,
        rooms=first.rooms | second.rooms,
        open_room=second.open_room or first.open_room,
        link=first.link or second.link,
        notice=second.notice or first.notice,
    )


class RedrawThrottle:
    """Collects updates and hands them to ``draw`` merged, at most once an ``interval``."""

    def __init__(
        self,
        draw: Callable[[Update], None],
        schedule: Schedule,
        clock: Callable[[], float],
        interval: float = REDRAW_INTERVAL,
    ) -> None:
        """Draw with ``draw``, waiting with ``schedule``, counting time on ``clock``."""
        self._draw = draw
        self._schedule = schedule
        self._clock = clock
        self._interval = interval
        self._pending: Update | None = None
        self._last: float | None = None

    @property
    def pending(self) -> Update | None:
        """What the next redraw will draw; ``None`` when none is due."""
        return self._pending

    def add(self, update: Update) -> None:
        """Draw ``update`` with the next redraw, scheduling one if none is due."""
        if self._pending is not None:
            self._pending = merge(self._pending, update)
            return
        self._pending = update
        wait = 0.0 if self._last is None else self._last + self._interval - self._clock()
        self._schedule(max(0.0, wait), self.flush)

    def flush(self) -> None:
        """Draw what is pending now."""
        update, self._pending = self._pending, None
        if update is None:
            return
        self._last = self._clock()
        self._draw(update)
