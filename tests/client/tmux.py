"""Real terminals for the client tests: one tmux server on a private socket, one session
(120×40 unless told) per person, keys typed and screens read as a person would."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator

from tests.client.processes import REPO

WIDTH, HEIGHT = 120, 40
"""A terminal's size unless told."""
WAIT = 40.0
"""Seconds to wait for a screen to show something before failing."""


def clean_environment() -> dict[str, str]:
    """This process's environment without a terminal size (a child would take an inherited
    ``COLUMNS`` and ``LINES`` for its own size, whatever tmux's window is)."""
    return {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}


class Terminals:
    """A tmux server on ``socket``; each session is one person's terminal."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def open(self, name: str, command: list[str], width: int = WIDTH, height: int = HEIGHT) -> None:
        """A terminal named ``name``, ``width`` × ``height``, running ``command`` once the
        window has its size (so the command never sees another)."""
        size = ["-x", str(width), "-y", str(height)]
        self._tmux("-f", "/dev/null", "new-session", "-d", "-s", name, *size, "cat")
        self._tmux("resize-window", "-t", name, *size)
        # The pane stays after the command ends, so a crash's traceback can be read.
        self._tmux("set-option", "-t", name, "remain-on-exit", "on")
        self._tmux("respawn-pane", "-k", "-t", name, *command)

    def _tmux(self, *args: str) -> str:
        command = ["tmux", "-L", self.socket, *args]
        done = subprocess.run(
            command, capture_output=True, text=True, check=True, env=clean_environment()
        )
        return done.stdout

    def keys(self, name: str, *keys: str) -> None:
        """Press ``keys`` in terminal ``name`` (tmux key names: ``Enter``, ``Tab``, ``C-s``…)."""
        self._tmux("send-keys", "-t", name, *keys)

    def type(self, name: str, text: str) -> None:
        """Type ``text`` literally in terminal ``name``."""
        self._tmux("send-keys", "-t", name, "-l", text)

    def screen(self, name: str) -> str:
        """What terminal ``name`` shows now."""
        return self._tmux("capture-pane", "-p", "-t", name)

    def size(self, name: str) -> str:
        """Terminal ``name``'s size, ``WIDTHxHEIGHT``."""
        return self._tmux("display-message", "-p", "-t", name, "#{window_width}x#{window_height}")

    def alive(self, name: str) -> bool:
        """Whether the command in terminal ``name`` still runs."""
        return self._tmux("display-message", "-p", "-t", name, "#{pane_dead}").strip() != "1"

    def wait_for(
        self, name: str, check: Callable[[str], object], what: str, seconds: float = WAIT
    ) -> str:
        """Terminal ``name``'s screen, once ``check(screen)`` holds (within ``seconds``)."""
        deadline = time.monotonic() + seconds
        while True:
            shown = self.screen(name)
            if check(shown):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"{name}'s terminal never showed {what}:\n{shown}")
            time.sleep(0.1)

    async def until(self, name: str, check: Callable[[str], object], what: str) -> str:
        """:meth:`wait_for` from a coroutine, without holding up its event loop (and the
        test's sockets)."""
        return await asyncio.to_thread(self.wait_for, name, check, what)

    def close(self) -> None:
        """Stop every terminal."""
        command = ["tmux", "-L", self.socket, "kill-server"]
        subprocess.run(command, check=False, env=clean_environment())


@contextlib.contextmanager
def terminals(kind: str) -> Iterator[Terminals]:
    """A tmux server of the test's own (its socket named after ``kind``), stopped after."""
    terms = Terminals(f"gamut-{kind}-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        yield terms
    finally:
        terms.close()


def showing(text: str) -> Callable[[str], bool]:
    """Whether a screen shows ``text``."""
    return lambda screen: text in screen


def play_as_guest(
    terms: Terminals, name: str, url: str, width: int = WIDTH, height: int = HEIGHT
) -> None:
    """Terminal ``name`` running ``gamut play`` on ``url`` as the guest ``name``."""
    client = [sys.executable, "-m", "gamut_client.tui", "--server", url]
    client += ["--name", name, "--no-save"]
    terms.open(name, ["sh", "-c", f"cd {REPO} && " + " ".join(client)], width, height)


async def sign_up(terms: Terminals, name: str, password: str) -> None:
    """In terminal ``name``, whose ``gamut play`` asks who is there, its person makes the
    account ``name`` and reaches the lobby signed in."""
    await terms.until(name, showing("play as a guest (g)?"), "the question")
    terms.type(name, "n")
    terms.keys(name, "Enter")
    await terms.until(name, showing("Account name:"), "the name asked")
    terms.type(name, name)
    terms.keys(name, "Enter")
    for question in ("Password:", "The same password again:"):
        await terms.until(name, showing(question), question)
        terms.type(name, password)
        terms.keys(name, "Enter")
    await terms.until(name, showing(f"connected as {name}"), "the lobby, signed in")
