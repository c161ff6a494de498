"""Sanctions applied to a running server within a second, wherever they were decided.

Every moderation action adds an entry to the audit log, in the same transaction. Each
server (each node of a cluster) reads the newest entry's number twice a second, a query
on the table's primary key; when it changes, it loads the sanctions in force and puts
them in force (:meth:`gamut_server.core.safety.Safety.apply`), so that a ban typed at
``gamut mod`` on the server's machine, or made through any node's API, ends the banned
player's sessions on every node. The sanctions are also loaded once a minute, so that
one expiring is forgotten without any action.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Final

from gamut_server.moderation.rules import SanctionBook
from gamut_server.storage import Store

log = logging.getLogger(__name__)

POLL_S: Final = 0.5
"""Seconds between two reads of the audit log's newest number."""

RELOAD_S: Final = 60.0
"""Seconds after which the sanctions are loaded again even without any action."""


class SanctionWatch:
    """Keeps a server's sanctions in step with the store."""

    def __init__(
        self, store: Store, apply: Callable[[SanctionBook], object], poll_s: float = POLL_S
    ) -> None:
        """A watch that calls ``apply`` with the sanctions in force whenever they change."""
        self.store = store
        self.apply = apply
        self.poll_s = poll_s
        self.loads = 0
        """How many times the sanctions were loaded."""
        self._seen: int | None = None
        self._loaded_at = 0.0
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Load the sanctions in force and watch for changes."""
        await self.check()
        self._task = asyncio.create_task(self._run(), name="sanction-watch")

    async def check(self) -> None:
        """Load the sanctions again if an action was taken since the last load."""
        newest = await self.store.last_audit_id()
        loop = asyncio.get_running_loop()
        if newest == self._seen and loop.time() - self._loaded_at < RELOAD_S:
            return
        sanctions = await self.store.sanctions_in_force(datetime.now(UTC))
        self._seen, self._loaded_at = newest, loop.time()
        self.loads += 1
        self.apply(SanctionBook(sanctions))

    async def _run(self) -> None:
        """Check every ``poll_s`` seconds until closed; a failed read is tried again."""
        while True:
            await asyncio.sleep(self.poll_s)
            try:
                await self.check()
            except Exception:
                log.exception("could not read the sanctions; trying again")

    async def close(self) -> None:
        """Stop watching."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
