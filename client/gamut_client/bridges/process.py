"""An external program spoken to line by line over its standard input and output.

Every bridge runs its engine through :class:`EngineProcess`: lines out with
:meth:`~EngineProcess.send`, lines in with :meth:`~EngineProcess.read_line` and a
deadline. A reader thread drains the program's output (and another its error output,
into the log), so a program that writes a lot never blocks on a full pipe, and a read
can give up on a program that does not answer in time.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import shlex
import subprocess
import threading
from collections.abc import Callable, Sequence
from typing import IO, Final

from gamut_client.bots.base import BotError

log = logging.getLogger(__name__)

CLOSE_GRACE: Final = 2.0
"""Seconds a program has to exit after its input is closed before it is killed."""


class BridgeError(BotError):
    """The external program failed: it exited, did not answer in time, or said something
    the bridge cannot read."""


def command_words(command: str | Sequence[str]) -> list[str]:
    """A command line split into words the way a POSIX shell would (without running one)."""
    words = shlex.split(command) if isinstance(command, str) else list(command)
    if not words:
        raise ValueError("the engine command is empty")
    return words


class EngineProcess:
    """A running program and its line-based conversation."""

    def __init__(
        self, command: str | Sequence[str], *, newline: str = "\n", label: str | None = None
    ) -> None:
        """Start ``command``; raises :class:`BridgeError` if it cannot be started."""
        self.words = command_words(command)
        """The command line, word by word."""
        self.label = label or self.words[0]
        """How the log names the program."""
        self.newline = newline
        """What ends each line sent (the Gomocup protocol asks for CR LF)."""
        try:
            self.process = subprocess.Popen(
                self.words,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as error:
            raise BridgeError(f"cannot start {self.words[0]}: {error}") from error
        self._lines: queue.Queue[str | None] = queue.Queue()
        assert self.process.stdout is not None
        assert self.process.stderr is not None
        self._drain(self.process.stdout, self._lines.put, "out")
        self._drain(self.process.stderr, self._log_error_line, "err")

    def send(self, line: str) -> None:
        """Write one line to the program."""
        stdin = self.process.stdin
        assert stdin is not None
        log.debug("%s <- %s", self.label, line)
        try:
            stdin.write(line + self.newline)
            stdin.flush()
        except (BrokenPipeError, ValueError, OSError) as error:
            raise BridgeError(f"{self.label} stopped reading: {error}") from error

    def read_line(self, timeout: float | None) -> str:
        """The program's next line, without its line ending.

        Raises :class:`BridgeError` if the program exits first or says nothing for
        ``timeout`` seconds (``None``: wait as long as it takes).
        """
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise BridgeError(f"{self.label} did not answer within {timeout:g} s") from None
        if line is None:
            self._lines.put(None)
            code = self.process.poll()
            raise BridgeError(f"{self.label} exited (status {code})")
        log.debug("%s -> %s", self.label, line)
        return line

    def close_input(self) -> None:
        """Close the program's input (the end of its conversation)."""
        stdin = self.process.stdin
        if stdin is not None and not stdin.closed:
            with contextlib.suppress(OSError):
                stdin.close()

    def close(self, grace: float = CLOSE_GRACE) -> None:
        """Close the program's input and wait for it to exit; kill it after ``grace`` seconds."""
        self.close_input()
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def _log_error_line(self, line: str | None) -> None:
        """Pass the program's error output to the log."""
        if line is not None:
            log.info("%s: %s", self.label, line)

    def _drain(self, stream: IO[str], sink: Callable[[str | None], None], name: str) -> None:
        """Read ``stream`` line by line into ``sink`` in a daemon thread; ``None`` at the end."""

        def pump() -> None:
            for line in stream:
                sink(line.rstrip("\r\n"))
            sink(None)

        threading.Thread(target=pump, name=f"{self.label}-{name}", daemon=True).start()
