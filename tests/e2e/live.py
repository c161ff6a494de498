"""A real Gamut server for end-to-end tests: in this process on a loopback port, or as
``python -m gamut_server`` in a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from gamut_server.app import build_app
from gamut_server.config import ServerConfig
from tests.server.live import GuardedTestServer

STARTUP_TIMEOUT = 60.0
"""Seconds a server subprocess may take to print where it listens."""

STOP_GRACE = 15.0
"""Seconds a server subprocess has to exit once asked to."""


@contextlib.asynccontextmanager
async def gamut_server(tmp_path: Path, **changes: Any) -> AsyncIterator[str]:
    """A server in this event loop with a fresh SQLite file and no AI unless asked;
    yields its WebSocket URL."""
    config = ServerConfig(
        host="127.0.0.1", port=0, db=str(tmp_path / "gamut.sqlite3"), ai_workers=0
    )
    server = GuardedTestServer(build_app(replace(config, **changes)), host="127.0.0.1")
    await server.start_server()
    try:
        yield f"ws://127.0.0.1:{server.port}/ws"
    finally:
        await server.close()


@contextlib.asynccontextmanager
async def served(tmp_path: Path, *arguments: str) -> AsyncIterator[str]:
    """``python -m gamut_server`` on a free port in a subprocess (no AI workers unless the
    arguments ask for them); yields its WebSocket URL. The server and its worker processes
    run in a process group of their own, ended as a whole if it does not exit in time."""
    if "--ai-workers" not in arguments:
        arguments = (*arguments, "--ai-workers", "0")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gamut_server",
        "--port",
        "0",
        "--db",
        str(tmp_path / "served.sqlite3"),
        "--quiet",
        *arguments,
        stdout=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), STARTUP_TIMEOUT)
        found = re.search(r"ws://\S+", line.decode())
        assert found, f"the server did not say where it listens: {line!r}"
        yield found.group(0)
    finally:
        await _stop(process)


async def _stop(process: asyncio.subprocess.Process) -> None:
    """Ask the server to stop; end its whole process group if it has not within the grace."""
    if process.returncode is None:
        process.terminate()
    try:
        await asyncio.wait_for(process.wait(), STOP_GRACE)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
