"""File descriptors: as many as the system allows, and one line when they run out.

Each socket costs a descriptor. A process starts with the system's soft limit (often
1,024) though its hard limit is usually far higher, so the server raises its own soft
limit to the hard one at start. When descriptors still run out, asyncio reports every
failed ``accept`` (each second, for as long as it lasts): the server logs the first and
then one line a minute saying how many more there were, so an attacker cannot fill the
log.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from typing import Any, Final

log = logging.getLogger(__name__)

ACCEPT_FAILED: Final = "socket.accept() out of system resource"
"""How asyncio begins its report of an ``accept`` that failed for want of descriptors."""

REPEAT_AFTER_S: Final = 60.0
"""Seconds between two log lines about failed accepts."""


def raise_descriptor_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit; the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard <= soft:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError) as error:
        log.warning("could not raise the open-file limit from %d to %d: %s", soft, hard, error)
        return soft
    return hard


class AcceptErrors:
    """An event loop's exception handler that reports failed accepts once a minute."""

    def __init__(self) -> None:
        """Nothing reported yet."""
        self.failures = 0
        """Failed accepts seen since the process started."""
        self._unreported = 0
        self._last_report: float | None = None

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """Log a failed accept at most once a minute; anything else as asyncio would."""
        if not str(context.get("message", "")).startswith(ACCEPT_FAILED):
            loop.default_exception_handler(context)
            return
        self.failures += 1
        self._unreported += 1
        now = loop.time()
        if self._last_report is not None and now - self._last_report < REPEAT_AFTER_S:
            return
        log.error(
            "%s (%d failed accepts since the last report): %s",
            ACCEPT_FAILED,
            self._unreported,
            context.get("exception"),
        )
        self._unreported = 0
        self._last_report = now

    def install(self) -> None:
        """Handle the running loop's exceptions."""
        asyncio.get_running_loop().set_exception_handler(self)
