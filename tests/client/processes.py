"""Gamut as real programs for the client tests: a ``gamut serve`` process and bots."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
"""The checkout, where the programs run."""


@contextmanager
def serve(folder: Path, ai_workers: int = 1, *options: str) -> Iterator[str]:
    """A ``gamut serve`` process on a free port, its database in ``folder``, with more
    ``options``; its WebSocket URL."""
    command = [sys.executable, "-m", "gamut_server", "--port", "0"]
    command += ["--ai-workers", str(ai_workers), "--db", str(folder / "gamut.sqlite3"), "--quiet"]
    command += options
    process = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        assert process.stdout is not None
        for line in process.stdout:
            found = re.search(r"connect to (ws://\S+)", line)
            if found:
                yield found.group(1)
                return
        raise AssertionError("gamut serve stopped before it served")
    finally:
        process.terminate()
        process.wait(timeout=30)


@contextmanager
def bot(url: str, name: str, *options: str) -> Iterator[subprocess.Popen[bytes]]:
    """``gamut bot random`` named ``name`` with ``options``, for as long as the block runs."""
    command = [sys.executable, "-m", "gamut_client.cli", "bot", "random", "--server", url]
    command += ["--name", name, "--no-save", *options]
    process = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        yield process
    finally:
        process.terminate()
        process.wait(timeout=30)
