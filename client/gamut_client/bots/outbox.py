"""What a bot runner sends: every message with an id, and sent again if the server was busy.

A server refuses messages that come too quickly with ``rate_limited``; a fast bot (two
random players, say) meets that limit. The outbox remembers its latest messages by id
and sends a refused one again after a growing pause, so no move, resignation or seek
is lost to it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Any, Final

from gamut_client.connection import Connection
from gamut_protocol import ClientMessage, ErrorMessage

log = logging.getLogger(__name__)

REMEMBERED: Final = 256
"""How many of the latest messages are kept for sending again."""

RETRIES: Final = 6
"""How many times a message refused as ``rate_limited`` is sent again."""

FIRST_PAUSE: Final = 0.25
"""Seconds before the first new attempt; each further one waits twice as long."""

Spawn = Callable[[Coroutine[Any, Any, Any]], None]
"""Runs a coroutine in the background."""


class Outbox:
    """Sends a runner's messages, each with an id, and sends again those refused as busy."""

    def __init__(self, connection: Connection, spawn: Spawn) -> None:
        """An outbox sending on ``connection``; ``spawn`` runs its delayed attempts."""
        self.connection = connection
        self._spawn = spawn
        self._recent: OrderedDict[str | int, tuple[ClientMessage, int]] = OrderedDict()
        self._ids = itertools.count(1)

    def new_id(self, prefix: str) -> str:
        """A fresh message id."""
        return f"{prefix}{next(self._ids)}"

    async def send(self, message: ClientMessage) -> None:
        """Send ``message`` (given an id if it has none); log rather than raise on failure."""
        if message.id is None:
            message = message.model_copy(update={"id": self.new_id(message.type)})
        assert message.id is not None
        attempts = self._recent.pop(message.id, (message, 0))[1]
        self._recent[message.id] = (message, attempts)
        while len(self._recent) > REMEMBERED:
            self._recent.popitem(last=False)
        try:
            await self.connection.send(message)
        except Exception as error:
            log.warning("could not send %s: %s", message.type, error)

    def retry(self, error: ErrorMessage) -> bool:
        """Send again later the message a ``rate_limited`` error refused; ``True`` if it will."""
        key = error.reply_to
        if error.code != "rate_limited" or key is None or key not in self._recent:
            return False
        message, attempts = self._recent[key]
        if attempts >= RETRIES:
            log.warning("giving up %s after %d refusals: %s", message.type, attempts, error.message)
            return False
        self._recent[key] = (message, attempts + 1)
        self._spawn(self._later(message, FIRST_PAUSE * 2**attempts))
        return True

    async def _later(self, message: ClientMessage, pause: float) -> None:
        """Send ``message`` again after ``pause`` seconds."""
        await asyncio.sleep(pause)
        await self.send(message)
