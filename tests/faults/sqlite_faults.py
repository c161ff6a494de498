"""Faults of a SQLite file made for real: another process's exclusive lock on it, or the
file and its write-ahead log made immutable (where ``chattr`` works)."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the database ``path``: its writers wait, then fail."""
    holder = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        yield
        holder.execute("ROLLBACK")
    finally:
        holder.close()


def can_make_immutable(folder: Path) -> bool:
    """Whether ``chattr +i`` works on files in ``folder`` (root on a file system that has it)."""
    if shutil.which("chattr") is None:
        return False
    probe = folder / "chattr-probe"
    probe.write_text("")
    try:
        made = subprocess.run(["chattr", "+i", str(probe)], capture_output=True).returncode == 0
        if made:
            subprocess.run(["chattr", "-i", str(probe)], check=True)
        return made
    finally:
        probe.unlink()


@contextlib.contextmanager
def immutable(path: Path) -> Iterator[None]:
    """Make the database ``path`` and its write-ahead log immutable for the block."""
    files = [str(file) for file in (path, path.with_name(path.name + "-wal")) if file.exists()]
    subprocess.run(["chattr", "+i", *files], check=True)
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", *files], check=True)
