"""The server says at start-up when Connect Five's AI runs without its compiled search."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from gamut_engine.games import connect5_core
from tests.e2e.served import serve_command


def first_lines(db: Path, env: dict[str, str]) -> list[str]:
    """The lines ``gamut serve`` prints before it waits for players."""
    process = subprocess.Popen(
        serve_command(db), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(3)]
        if connect5_core.SWITCH in env or not connect5_core.built():
            lines.append(process.stdout.readline())
        return lines
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_server_without_the_compiled_search_says_so_in_one_sentence(tmp_path: Path) -> None:
    env = {**os.environ, connect5_core.SWITCH: "1"}
    lines = first_lines(tmp_path / "games.sqlite3", env)
    assert lines[-1].startswith("Connect Five's compiled search is switched off")
    assert lines[-1].rstrip().endswith("so its AI runs in pure Python, much slower.")


@pytest.mark.skipif(
    not connect5_core.built() and not os.environ.get("CI"),
    reason="the compiled search is not built (no C compiler at install)",
)
def test_a_server_with_the_compiled_search_says_nothing_of_it(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != connect5_core.SWITCH}
    lines = first_lines(tmp_path / "games.sqlite3", env)
    assert lines[2].startswith("games are kept in")
    assert not any("compiled search" in line for line in lines)
