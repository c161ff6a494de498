"""Closing a pool ends its workers within a bound, even one that does not end when asked."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from pathlib import Path

import pytest

from gamut_server import keys
from gamut_server.ai.analysis_pool import AnalysisPool
from gamut_server.ai.pool import AIPool
from gamut_server.ai.worker import ThinkRequest
from tests.server.live import live_server, server_config

GRACE_S = 0.5
"""The pools' grace in these tests."""

HANG_S = 120.0
"""Far longer than closing takes on a loaded machine: past it, closing hung."""


async def deafen(executor: ProcessPoolExecutor) -> list[BaseProcess]:
    """Make the executor's only worker ignore SIGTERM, as one stuck where it cannot act
    on it would; its processes."""
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(executor, signal.signal, signal.SIGTERM, signal.SIG_IGN)
    return list(executor._processes.values())


async def closed_in_time(
    pool: AIPool | AnalysisPool,
    workers: list[BaseProcess],
    closing: Awaitable[object] | None = None,
) -> None:
    """Close ``pool`` (by ``closing``, if given); fail (killing its workers, so the test
    run can end) if it hangs."""
    try:
        await asyncio.wait_for(closing or pool.close(), HANG_S)
    except TimeoutError:
        pytest.fail("closing waited on a worker that ignored SIGTERM")
    finally:
        for process in workers:
            if process.pid is not None and process.exitcode is None:
                os.kill(process.pid, signal.SIGKILL)
    assert not any(process.is_alive() for process in workers)


async def test_a_search_that_ignores_sigterm_is_killed_after_the_grace() -> None:
    pool = AIPool(1, grace=GRACE_S)
    await pool.start()
    assert pool._executor is not None
    workers = await deafen(pool._executor)
    request = ThinkRequest("connect5", {}, ("h8",), level=8, budget_ms=3_600_000)
    search = asyncio.create_task(pool.think(request))
    while pool.thinking == 0:
        await asyncio.sleep(0.01)
    await closed_in_time(pool, workers)
    with pytest.raises(BrokenProcessPool):
        await search


async def test_an_analysis_worker_that_ignores_sigterm_is_killed_after_the_grace() -> None:
    pool = AnalysisPool(1, nice=0, grace=GRACE_S)
    await pool.start()
    assert pool._executor is not None
    workers = await deafen(pool._executor)
    stuck = pool._executor.submit(time.sleep, 3600)
    while not stuck.running():
        await asyncio.sleep(0.01)
    await closed_in_time(pool, workers)
    with pytest.raises(BrokenProcessPool):
        stuck.result()


async def test_a_server_stops_with_an_ai_worker_that_ignores_sigterm(tmp_path: Path) -> None:
    running = live_server(server_config(tmp_path, ai_workers=1))
    server = await running.__aenter__()
    pool = server.app[keys.AI_POOL]
    assert pool._executor is not None
    workers = await deafen(pool._executor)
    stuck = pool._executor.submit(time.sleep, 3600)
    while not stuck.running():
        await asyncio.sleep(0.01)
    await closed_in_time(pool, workers, running.__aexit__(None, None, None))
