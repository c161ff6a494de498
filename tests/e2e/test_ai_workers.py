"""The AI's worker processes end with the server, even when it is killed outright."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from tests.e2e.served import serve

LIVENESS_BOUND = 60.0
"""Seconds to wait for processes to appear or vanish: generous, never a speed claim."""


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running (not zombie) process."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(condition: object, what: str) -> None:
    """Poll ``condition`` until it holds, failing with ``what`` past the liveness bound."""
    assert callable(condition)
    deadline = time.monotonic() + LIVENESS_BOUND
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def test_ai_workers_exit_when_the_server_is_killed(tmp_path: Path) -> None:
    with serve(tmp_path / "games.sqlite3", "--ai-workers", "2", stop=signal.SIGKILL) as served:
        server = served.process.pid
        wait_for(lambda: len(children(server)) >= 2, "the server started no AI workers")
        workers = children(server)
        os.kill(server, signal.SIGKILL)
    wait_for(lambda: not any(alive(pid) for pid in workers), "AI workers outlived the server")
