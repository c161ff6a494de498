"""Connect Five single-move programs play Connect Five on a Gamut server.

Such a program plays one move and exits: it reads a board (rows of ``X``, ``O`` and
``-``, top row first, as the Scheme list of lists ``(list (list '- 'X …) …)`` it
``(read)``s, or as plain rows) and prints its move as ``(col row)``, both counted from 0
with row 0 at the top. It always plays ``X``, so, as the original referee did, the bridge
shows the board from the mover's side: when the bot plays O, the stones are swapped.
"""

from __future__ import annotations

import logging
import re
import subprocess
from collections.abc import Sequence
from typing import Final

from gamut_client.bots.base import Bot
from gamut_client.bots.view import GameView
from gamut_client.bridges.board import BoardFormat, board_text, cell_at, mover_rows
from gamut_client.bridges.process import BridgeError, command_words

log = logging.getLogger(__name__)

ANSWER_GRACE: Final = 5.0
"""Seconds past its clock the bridge waits for the program before giving it up."""

_MOVE: Final = re.compile(r"\(?\s*(\d{1,2})(?:\s*,\s*|\s+)(\d{1,2})\s*\)?")


class SeedProgramBot(Bot):
    """Plays Connect Five by running a single-move program once for every move."""

    def __init__(self, command: str | Sequence[str], *, board: BoardFormat = "scheme") -> None:
        """A bot running ``command`` with boards written as ``board`` (Scheme lists or rows)."""
        super().__init__()
        self.command = command_words(command)
        """The program's command line, word by word."""
        self.board = board
        """How boards are written to the program."""

    def choose_move(self, view: GameView) -> str:
        """Run the program on the board seen from this bot's side and read its ``(col row)``."""
        if view.game_name != "connect5":
            raise BridgeError(f"a single-move program plays Connect Five, not {view.game_name}")
        rows = mover_rows(view.descriptor, view.position, view.my_side)
        output = self.run_program(board_text(rows, self.board), view.think_seconds(1.0, 0))
        column, row = parse_answer(output)
        return cell_at(view.descriptor, column, row)

    def run_program(self, board: str, seconds: float | None) -> str:
        """The program's output for ``board``; :class:`BridgeError` if it fails or is late."""
        timeout = None if seconds is None else seconds + ANSWER_GRACE
        try:
            done = subprocess.run(
                self.command,
                input=board,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise BridgeError(f"{self.command[0]} did not answer within {timeout:g} s") from None
        except OSError as error:
            raise BridgeError(f"cannot run {self.command[0]}: {error}") from error
        for line in done.stderr.splitlines():
            log.info("%s: %s", self.command[0], line)
        if done.returncode != 0:
            raise BridgeError(f"{self.command[0]} failed with status {done.returncode}")
        return done.stdout


def parse_answer(output: str) -> tuple[int, int]:
    """The ``(col row)`` on the last line of the program's output that holds one."""
    for line in reversed(output.strip().splitlines()):
        found = _MOVE.search(line)
        if found:
            return int(found.group(1)), int(found.group(2))
    raise BridgeError(f"the program printed no move (col row): {output.strip()[:80]!r}")
