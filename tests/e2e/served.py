"""A real ``gamut serve`` process for end-to-end tests: started on a free loopback port."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

_WHERE = re.compile(r"connect to (ws://\S+/ws)")


@dataclass(frozen=True)
class Served:
    """A running server process and where to reach it."""

    process: subprocess.Popen[str]
    ws_url: str
    """The WebSocket endpoint, ``ws://127.0.0.1:PORT/ws``."""

    @property
    def http_url(self) -> str:
        """The base of the HTTP API, ``http://127.0.0.1:PORT``."""
        return "http" + self.ws_url.removeprefix("ws").removesuffix("/ws")


def serve_command(db: Path | str, *extra: str) -> list[str]:
    """The command line that serves ``db`` (a SQLite file or a URL) on a free loopback port."""
    return [
        sys.executable,
        "-m",
        "gamut_server",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--db",
        str(db),
        *extra,
    ]


@contextmanager
def serve(
    db: Path | str,
    *extra: str,
    stop: signal.Signals = signal.SIGTERM,
    logs: Path | None = None,
) -> Iterator[Served]:
    """Run ``gamut serve`` on ``db`` until the block ends, then stop it with ``stop``.

    The server's log goes to ``server.log`` in ``logs``, by default the folder of the
    SQLite file ``db``. A server stopped with SIGTERM must exit cleanly (status 0).
    """
    if logs is None:
        if not isinstance(db, Path):
            raise ValueError("say where the log goes when the database is a URL")
        logs = db.parent
    log_path = logs / "server.log"
    log = log_path.open("a")
    process = subprocess.Popen(
        serve_command(db, *extra), stdout=subprocess.PIPE, stderr=log, text=True
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        found = _WHERE.search(first)
        assert found, f"the server did not say where to connect: {first!r}"
        yield Served(process, found.group(1))
    finally:
        if process.poll() is None:
            process.send_signal(stop)
        status = process.wait(timeout=30)
        log.close()
    if stop == signal.SIGTERM:
        assert status == 0, log_path.read_text()[-2000:]
