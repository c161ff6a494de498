"""Nodes of a cluster on a private Redis and a private PostgreSQL, for fault tests: each a
real ``gamut serve`` process, and ways to wait on what their ``/health`` says."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.e2e.served import Served, serve
from tests.faults.story import RECOVERY_WAIT, get_json
from tests.server.live import Client

NO_WORKERS = ("--ai-workers", "0", "--analysis-workers", "0")
"""The fault tests' games are between people: no worker processes to start."""


@contextlib.contextmanager
def node(db: str, redis: str, cluster: str, name: str, logs: Path) -> Iterator[Served]:
    """One node of ``cluster`` (killed at the end, whatever state it is in)."""
    folder = logs / name
    folder.mkdir(parents=True, exist_ok=True)
    arguments = ("--redis", redis, "--node", name, "--cluster", cluster, *NO_WORKERS)
    with serve(db, *arguments, logs=folder, stop=signal.SIGKILL) as served:
        try:
            yield served
        finally:
            with contextlib.suppress(ProcessLookupError):
                served.process.send_signal(signal.SIGCONT)


async def health(served: Served) -> dict[str, Any]:
    """The node's ``/health``."""
    answer: dict[str, Any] = await get_json(served.http_url, "/health")
    return answer


async def until(check: Callable[[], Any], what: str, timeout: float = RECOVERY_WAIT) -> None:
    """Wait until ``check()`` (a coroutine function or a plain one) is true."""
    deadline = time.monotonic() + timeout
    while True:
        outcome = check()
        if asyncio.iscoroutine(outcome):
            outcome = await outcome
        if outcome:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s in vain for {what}")
        await asyncio.sleep(0.1)


async def redis_is(nodes: list[Served], state: str) -> bool:
    """Whether every node in ``nodes`` reports Redis as ``state`` (``ok``, ``unreachable``)."""
    for served in nodes:
        if (await health(served))["cluster"].get("redis") != state:
            return False
    return True


async def client(served: Served, name: str) -> Client:
    """A client of one node, welcomed as ``name`` and following the lobby."""
    joined = await Client.connect(served.ws_url)
    await joined.hello(name)
    await joined.expect("lobby_snapshot")
    return joined


def log_of(logs: Path, name: str) -> str:
    """What node ``name`` has logged so far."""
    return (logs / name / "server.log").read_text(errors="replace")
