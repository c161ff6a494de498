"""argon2 off the event loop, a bounded number at once.

Every password checked costs an argon2id hash (about 20 ms of one core and 19 MiB),
and so does every bot token. They run in a small pool of threads of their own
(argon2-cffi lets go of the interpreter while it hashes), never on the event loop: at
most ``workers`` hash at once and at most ``waiting`` more wait their turn. A request
beyond that is refused at once with :class:`HashingBusyError`, so a flood of sign-ins
makes sign-ins wait or fail, and never the games being played.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

T = TypeVar("T")

DEFAULT_WORKERS: Final = 1
"""Hashes computed at once by default: one core, the other left to the event loop."""

DEFAULT_WAITING: Final = 32
"""Hashes that may wait for a worker by default (about 0.7 s of work at 20 ms each)."""

BUSY: Final = "the server is checking too many passwords at once: try again in a few seconds"
"""Why a request is refused when the pool is full."""


class HashingBusyError(RuntimeError):
    """The pool is full: the request was not hashed."""

    def __init__(self) -> None:
        super().__init__(BUSY)


class HashingPool:
    """A few threads for argon2, with a bound on the work waiting for them."""

    def __init__(self, workers: int = DEFAULT_WORKERS, waiting: int = DEFAULT_WAITING) -> None:
        """A pool of ``workers`` threads admitting ``waiting`` more requests than that."""
        if workers < 1 or waiting < 0:
            raise ValueError("a hashing pool needs a worker, and cannot have negative room")
        self.workers = workers
        """Hashes computed at once."""
        self.capacity = workers + waiting
        """Requests admitted at once, running or waiting."""
        self.admitted = 0
        """Requests running or waiting now."""
        self.refused = 0
        """Requests refused because the pool was full, since it started."""
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="argon2")

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` on a hashing thread; raises :class:`HashingBusyError` if the pool is full."""
        if self.admitted >= self.capacity:
            self.refused += 1
            raise HashingBusyError
        self.admitted += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, work)
        finally:
            self.admitted -= 1

    def close(self) -> None:
        """Let the hashes under way finish; refuse new ones."""
        self._executor.shutdown(wait=False, cancel_futures=True)

    def stats(self) -> dict[str, int]:
        """Its load, for ``/health``."""
        return {"admitted": self.admitted, "capacity": self.capacity, "refused": self.refused}
