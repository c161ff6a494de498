"""A real Gamut server for end-to-end tests: in this process on a loopback port, or as
``python -m gamut_server`` in a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestServer

from gamut_server.app import build_app
from gamut_server.config import ServerConfig

STARTUP_TIMEOUT = 60.0
"""Seconds a server subprocess may take to print where it listens."""


@contextlib.asynccontextmanager
async def gamut_server(tmp_path: Path, **changes: Any) -> AsyncIterator[str]:
    """A server in this event loop with a fresh SQLite file and no AI unless asked;
    yields its WebSocket URL."""
    config = ServerConfig(
        host="127.0.0.1", port=0, db=str(tmp_path / "gamut.sqlite3"), ai_workers=0
    )
    server = TestServer(build_app(replace(config, **changes)), host="127.0.0.1")
    await server.start_server()
    try:
        yield f"ws://127.0.0.1:{server.port}/ws"
    finally:
        await server.close()


@contextlib.asynccontextmanager
async def served(tmp_path: Path, *arguments: str) -> AsyncIterator[str]:
    """``python -m gamut_server`` on a free port in a subprocess; yields its WebSocket URL."""
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
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), STARTUP_TIMEOUT)
        found = re.search(r"ws://\S+", line.decode())
        assert found, f"the server did not say where it listens: {line!r}"
        yield found.group(0)
    finally:
        if process.returncode is None:
            process.terminate()
            await process.wait()
