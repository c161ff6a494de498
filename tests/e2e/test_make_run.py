"""``make run`` as the README says: port 8080 unless ``PORT`` (or ``GAMUT_PORT``) says
otherwise, and a word about the database's tables only when they are made or upgraded."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from gamut_server.storage.migrate import head_revision

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed"),
]


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@contextmanager
def make_run(*variables: str, env: dict[str, str] | None = None) -> Iterator[list[str]]:
    """``make run VARIABLES`` with this Python's ``gamut``; what it printed up to the line
    saying where to connect (that line last), while it serves."""
    command = ["make", "-s", "-o", ".venv/.installed-stamp", "run"]
    command += [f"BIN={Path(sys.executable).parent}", *variables]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        lines: list[str] = []
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if "connect to ws://" in line:
                yield lines
                break
        else:
            raise AssertionError("make run stopped before it served:\n" + "\n".join(lines))
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=60)


def test_make_run_takes_its_port_from_port_or_gamut_port(tmp_path: Path) -> None:
    db = f"DB={tmp_path / 'gamut.sqlite3'}"
    port = free_port()
    with make_run(f"PORT={port}", db) as lines:
        assert f"connect to ws://127.0.0.1:{port}/ws" in lines[-1]
        # A new database: one line says its tables were made, and no line of Alembic's.
        (made,) = lines[:-1]
        assert made.endswith(f"created the database's tables at revision {head_revision()}")
    port = free_port()
    with make_run(db, env={"GAMUT_PORT": str(port)}) as lines:
        # The tables are up to date: the address comes first.
        assert len(lines) == 1, lines
        assert f"connect to ws://127.0.0.1:{port}/ws" in lines[0]
