"""``gamut play`` in a real terminal, as a person uses it: tmux types the keys and reads the screen.

A ``gamut serve`` process (with one AI worker) and the client run as real programs;
tmux (on a private socket, 120×40) sends key presses and captures what the terminal
shows. The person opens a game against the AI, places a chip with the keyboard, types
moves on the board (one refused with its reason, one played), resigns, and quits.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("tmux") is None,
        reason="tmux is not installed (apt-get install tmux) so the terminal test cannot run",
    ),
]

REPO = Path(__file__).resolve().parents[2]
BOARD_KEYS = "⏎ Choose cell"
"""What the footer shows while the board has the keys."""
WIDTH, HEIGHT = 120, 40
"""The terminal's size."""
WAIT = 40.0
"""Seconds to wait for the screen to show something before failing."""


def clean_environment() -> dict[str, str]:
    """This process's environment without a terminal size.

    Some libraries export ``COLUMNS`` and ``LINES`` at the C level when they look at a
    terminal; a child started with the inherited environment would then take them for
    its own size, whatever tmux's window is. ``os.environ`` does not hold them.
    """
    return {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}


class Terminal:
    """A tmux session on a private socket, running one command."""

    def __init__(self, socket: str, command: list[str]) -> None:
        self.socket = socket
        size = ["-x", str(WIDTH), "-y", str(HEIGHT)]
        self._tmux("-f", "/dev/null", "new-session", "-d", "-s", "play", *size, "cat")
        self._tmux("resize-window", "-t", "play", *size)
        # The pane stays after the command ends, so a crash's traceback can be read.
        self._tmux("set-option", "-t", "play", "remain-on-exit", "on")
        # The command starts once the window has its size, so it never sees another.
        self._tmux("respawn-pane", "-k", "-t", "play", *command)

    def size(self) -> str:
        """The window's size, ``WIDTHxHEIGHT``."""
        return self._tmux("display-message", "-p", "-t", "play", "#{window_width}x#{window_height}")

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=True,
            env=clean_environment(),
        )
        return done.stdout

    def keys(self, *keys: str) -> None:
        """Press ``keys`` (tmux key names: ``Enter``, ``Left``, ``C-s``, ``a``…)."""
        self._tmux("send-keys", "-t", "play", *keys)

    def type(self, text: str) -> None:
        """Type ``text`` literally."""
        self._tmux("send-keys", "-t", "play", "-l", text)

    def screen(self) -> str:
        """What the terminal shows now."""
        return self._tmux("capture-pane", "-p", "-t", "play")

    def wait_for(self, check: Callable[[str], object], what: str) -> str:
        """The screen, once ``check(screen)`` holds."""
        deadline = time.monotonic() + WAIT
        while True:
            shown = self.screen()
            if check(shown):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"the terminal never showed {what}:\n{shown}")
            time.sleep(0.1)

    def alive(self) -> bool:
        """Whether the command in the pane is still running."""
        return self._tmux("display-message", "-p", "-t", "play", "#{pane_dead}").strip() != "1"

    def close(self) -> None:
        subprocess.run(
            ["tmux", "-L", self.socket, "kill-server"], check=False, env=clean_environment()
        )


@pytest.fixture
def server_url(tmp_path: Path) -> Iterator[str]:
    """A ``gamut serve`` process on a free port; its WebSocket URL."""
    command = [sys.executable, "-m", "gamut_server", "--port", "0", "--ai-workers", "1"]
    command += ["--db", str(tmp_path / "gamut.sqlite3"), "--quiet"]
    process = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        assert process.stdout is not None
        for line in process.stdout:
            found = re.search(r"connect to (ws://\S+)", line)
            if found:
                yield found.group(1)
                break
        else:
            pytest.fail("gamut serve stopped before it served")
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture
def terminal(server_url: str, tmp_path: Path) -> Iterator[Terminal]:
    client = [sys.executable, "-m", "gamut_client.tui", "--server", server_url, "--name", "ada"]
    shell = f"cd {REPO} && " + " ".join(client)
    term = Terminal(f"gamut-test-{os.getpid()}-{uuid.uuid4().hex[:8]}", ["sh", "-c", shell])
    try:
        yield term
    finally:
        term.close()


def board_row(screen: str, label: str) -> str:
    """The board's row ``label`` from its first cell's glyph on: column ``c``'s glyph is at ``3c``
    (Network's rows are labelled 0-7 on both sides)."""
    for line in screen.splitlines():
        found = re.match(rf"^[\s│]*{label}  (.*) {label}\s", line)
        if found:
            return found.group(1)
    raise AssertionError(f"no board row {label} on screen:\n{screen}")


def free(screen: str, cell: str) -> bool:
    """Whether Network's ``cell`` (column then row) is empty on the screen's board."""
    return board_row(screen, cell[1])[3 * int(cell[0])] == "·"


def moves_in(screen: str) -> list[str]:
    """The moves the move list shows (rows such as ``│  1. 34  03   │``)."""
    moves: list[str] = []
    for found in re.finditer(r"│\s+\d+\. (\w+)(?:  (\w+))?(?=\s|$)", screen, re.MULTILINE):
        moves += [move for move in found.groups() if move]
    return moves


def test_a_person_plays_the_ai_in_a_real_terminal(terminal: Terminal) -> None:
    assert terminal.size().strip() == f"{WIDTH}x{HEIGHT}"
    terminal.wait_for(lambda s: "Gamut lobby" in s and "connected as ada" in s, "the lobby")
    terminal.keys("C-g")
    terminal.wait_for(lambda s: "New game" in s and "the server's AI" in s, "the new-game form")
    terminal.keys("C-s")
    shown = terminal.wait_for(
        lambda s: "Your move" in s and BOARD_KEYS in s, "the game, the board ready for keys"
    )
    assert "Network" in shown
    assert "ai-3 [AI]" in shown

    # The cursor starts on 34; if the AI took it, step left to 24 first.
    before = moves_in(shown)
    mine = "34" if board_row(shown, "4")[9] == "·" else "24"
    if mine == "24":
        terminal.keys("Left")
    terminal.keys("Enter")
    shown = terminal.wait_for(lambda s: len(moves_in(s)) == len(before) + 2, "the AI's answer")
    assert moves_in(shown)[len(before)] == mine
    assert f"ai-3 played {moves_in(shown)[-1]}" in shown

    # Digits typed while the board has the focus are a typed move, never the cursor's
    # cell: the typed move is the one played, and a refused one plays nothing.
    assert BOARD_KEYS in shown
    typed = next(cell for cell in ("61", "16", "65", "12") if free(shown, cell))
    terminal.type(typed)
    terminal.keys("Enter")
    shown = terminal.wait_for(lambda s: len(moves_in(s)) == len(before) + 4, "the next answer")
    assert moves_in(shown)[len(before) + 2] == typed
    terminal.type("00")
    terminal.keys("Enter")
    shown = terminal.wait_for(lambda s: "00 is a corner" in s, "the reason for refusing 00")
    assert len(moves_in(shown)) == len(before) + 4

    terminal.keys("C-r")
    terminal.wait_for(lambda s: "Resign this game?" in s, "the question")
    terminal.keys("y")
    shown = terminal.wait_for(lambda s: "Game over" in s, "the end of the game")
    assert "You lost" in shown

    terminal.keys("Escape")  # from the move field back to the board, then to the lobby
    terminal.wait_for(lambda s: BOARD_KEYS in s, "the focus back on the board")
    terminal.keys("Escape")
    terminal.wait_for(lambda s: "Gamut lobby" in s and "Games being played" in s, "the lobby again")
    terminal.keys("C-q")
    deadline = time.monotonic() + WAIT
    while terminal.alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not terminal.alive()
