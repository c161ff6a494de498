"""What the server benchmark's runs share: the tally, percentiles and the server process."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from sqlalchemy.ext.asyncio import create_async_engine

from gamut_server.storage import database_url


@dataclass
class Tally:
    """What all the players measured."""

    latencies_ms: list[float] = field(default_factory=list)
    """From a move's sending to the opponent's receiving it."""
    moves: int = 0
    """Moves the opponents received while measuring."""
    games: int = 0
    """Games finished."""
    errors: list[str] = field(default_factory=list)
    """Unexpected errors the server answered with."""
    measuring: bool = False
    """Whether moves count now (after the warm-up, before the end)."""
    sent_at: dict[tuple[str, int], float] = field(default_factory=dict)
    """When each (room, ply) move was sent."""
    seated: int = 0
    """Players that have received the snapshot of their first game."""

    def arrived(self, room_id: str, ply: int) -> None:
        """The opponent received the move of ``room_id`` at ``ply``: record its latency."""
        sent = self.sent_at.pop((room_id, ply), None)
        if sent is not None and self.measuring:
            self.latencies_ms.append((time.perf_counter() - sent) * 1000)
            self.moves += 1


@dataclass(frozen=True)
class Server:
    """A server process the benchmark started."""

    address: str
    """What its first line named (a URL, or ``host:port``)."""
    pid: int
    """Its process id, to read its CPU time."""

    def cpu_seconds(self) -> float:
        """The CPU time (user and system) the process has used so far."""
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


STOP_WAIT_S = 30
"""Seconds a server may take to stop after SIGTERM."""


@asynccontextmanager
async def server_process(
    command: list[str],
    pattern: str,
    env: dict[str, str] | None = None,
    lines: int = 1,
    log: IO[str] | None = None,
) -> AsyncIterator[Server]:
    """Run ``command`` until the block ends; yields it with the group ``pattern`` finds in
    the first ``lines`` lines it prints. Its standard error goes to ``log`` (default:
    this process's). A process still running 30 s after SIGTERM is killed, and said so."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
    try:
        assert process.stdout is not None
        printed: list[str] = []
        found = None
        while found is None and len(printed) < lines:
            printed.append(await asyncio.to_thread(process.stdout.readline))
            found = re.search(pattern, printed[-1])
            if not printed[-1]:
                break
        if found is None:
            raise RuntimeError(f"the process did not start: {''.join(printed)!r}")
        yield Server(found.group(1), process.pid)
    finally:
        process.terminate()
        try:
            await asyncio.to_thread(process.wait, STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            print(
                f"process {process.pid} still running {STOP_WAIT_S} s after SIGTERM: killed "
                f"({' '.join(command)})",
                file=sys.stderr,
                flush=True,
            )
            process.kill()
            await asyncio.to_thread(process.wait)


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which ``share`` of ``values`` fall (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def wait_seated(tally: Tally, players: int, limit: float) -> None:
    """Wait until every player has its first game (at most ``limit`` seconds)."""
    deadline = time.perf_counter() + limit
    while tally.seated < players and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)


async def cancel(tasks: Sequence[asyncio.Task[object]]) -> None:
    """Cancel the players' tasks and wait for them."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@asynccontextmanager
async def bench_database(postgres: str | None, folder: Path) -> AsyncIterator[str]:
    """Where one run keeps its games: a SQLite file in ``folder``, or a new database on
    the ``postgres`` server (a URL of any database there), dropped afterwards."""
    if postgres is None:
        yield str(folder / "bench.sqlite3")
        return
    name = f"gamut_bench_{os.getpid()}_{secrets.token_hex(3)}"
    admin = create_async_engine(database_url(postgres), isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        yield database_url(postgres).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as conn:
            await conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.dispose()
