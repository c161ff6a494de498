"""The Gomocup protocol: gomoku engines (``pbrain-…``) play Connect Five on a Gamut server.

The bridge is the Gomocup *manager* for the engine, one engine process per game:

- ``START size`` (answered ``OK``), then ``INFO timeout_turn``, ``timeout_match``,
  ``max_memory``, ``game_type`` and ``rule 0`` (five or more in a row wins, the
  freestyle rule of Connect Five);
- ``ABOUT``, whose answer is logged;
- for each move: ``INFO time_left`` when the game has a clock, then ``BEGIN`` on an empty
  board, ``TURN x,y`` with the opponent's last move when the engine saw everything
  before it, or else the whole game as ``BOARD`` … ``DONE`` (``x,y,1`` for the engine's
  stones, ``x,y,2`` for the opponent's, in the order they were played); the engine
  answers ``x,y``;
- ``END`` when the game is over.

Coordinates count from 0: ``x`` is the column from the left, ``y`` the row from the top
(the original ``(col row)``). Lines starting ``MESSAGE``, ``DEBUG`` or ``SUGGEST`` are
logged and skipped; ``ERROR`` or ``UNKNOWN`` in place of an answer fails the game, unless
it only complains of a word of an ``INFO`` line read as a command (logged and skipped).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from gamut_client.bots.view import GameView
from gamut_client.bridges.board import cell_at, cell_coordinates
from gamut_client.bridges.process import BridgeError, EngineProcess
from gamut_client.bridges.sessions import SessionBot
from gamut_engine.search.levels import move_budget

log = logging.getLogger(__name__)

START_TIMEOUT: Final = 30.0
"""Seconds an engine has to answer ``START`` and ``ABOUT``."""

MARGIN_MS: Final = 500
"""Milliseconds kept back from the engine's time for the network."""

ANSWER_GRACE: Final = 5.0
"""Seconds past its clock the bridge waits for a move before giving the engine up."""

FREESTYLE: Final = 0
"""``INFO rule`` for five or more in a row wins (1 would be exactly five)."""

_MOVE: Final = re.compile(r"\s*(\d{1,2})\s*,\s*(\d{1,2})\s*")
_CHATTER: Final = ("MESSAGE", "DEBUG", "SUGGEST")
_FAILURES: Final = ("ERROR", "UNKNOWN")
_INFO_KEYS: Final = (
    "TIMEOUT_TURN",
    "TIMEOUT_MATCH",
    "TIME_LEFT",
    "MAX_MEMORY",
    "GAME_TYPE",
    "RULE",
)
"""The ``INFO`` keys the bridge sends. An engine still winding up its last search may
drop words of an ``INFO`` line and complain of the next, a key or a number, as an unknown
command (Rapfi does): the information is lost, the game is not, so such a complaint is
only logged."""


@dataclass
class GomocupSession:
    """One game's engine, and how much of the game it has seen."""

    engine: EngineProcess
    """The engine process."""
    seen: int = 0
    """Plies of the game the engine knows, its own included."""
    about: str | None = None
    """The engine's answer to ``ABOUT``."""


class GomocupBot(SessionBot[GomocupSession]):
    """Plays Connect Five with an engine speaking the Gomocup protocol."""

    def __init__(self, command: str | Sequence[str], *, rule: int = FREESTYLE) -> None:
        """A bot running the engine ``command`` for every game."""
        super().__init__(command)
        self.rule = rule
        """The ``INFO rule`` value sent (0: five or more wins)."""

    def start_session(self, view: GameView) -> GomocupSession:
        """Start the engine, ``START`` it on the game's board and give it the rules."""
        if view.game_name != "connect5":
            raise BridgeError(f"a Gomocup engine plays Connect Five, not {view.game_name}")
        engine = EngineProcess(self.command, newline="\r\n", label=self.command[0])
        try:
            size = len(view.descriptor.geometry.rows)
            engine.send(f"START {size}")
            answer = _answer(engine, START_TIMEOUT)
            if not answer.upper().startswith("OK"):
                raise BridgeError(f"the engine refused START {size}: {answer}")
            for line in self.info_lines(view):
                engine.send(line)
            engine.send("ABOUT")
            about = _answer(engine, START_TIMEOUT)
        except BridgeError:
            engine.close()
            raise
        log.info("Gomocup engine for %s: %s", view.room_id, about)
        return GomocupSession(engine, about=about)

    def info_lines(self, view: GameView) -> list[str]:
        """The ``INFO`` lines describing the game's limits and rules."""
        turn_ms, match_ms = _limits(view)
        opponent = 0 if view.opponent.kind == "human" else 1
        return [
            f"INFO timeout_turn {turn_ms}",
            f"INFO timeout_match {match_ms}",
            "INFO max_memory 0",
            f"INFO game_type {opponent}",
            f"INFO rule {self.rule}",
        ]

    def choose_move(self, view: GameView) -> str:
        """Tell the engine what happened and read its move."""
        session = self.session(view)
        engine = session.engine
        left = view.time_left_ms()
        if left is not None:
            engine.send(f"INFO time_left {max(0, left - MARGIN_MS)}")
        for line in self.turn_lines(view, session.seen):
            engine.send(line)
        timeout = None if left is None else left / 1000 + ANSWER_GRACE
        answer = _answer(engine, timeout)
        move = _MOVE.fullmatch(answer)
        if move is None:
            raise BridgeError(f"the engine answered {answer!r}, not a move x,y")
        session.seen = view.ply + 1
        return cell_at(view.descriptor, int(move.group(1)), int(move.group(2)))

    def turn_lines(self, view: GameView, seen: int) -> list[str]:
        """``BEGIN``, ``TURN x,y`` or ``BOARD`` … ``DONE``: what brings the engine up to date."""
        if view.ply == 0:
            return ["BEGIN"]
        coordinates = cell_coordinates(view.descriptor)
        if seen == view.ply - 1:
            x, y = coordinates[view.moves[-1]]
            return [f"TURN {x},{y}"]
        lines = ["BOARD"]
        for ply, move in enumerate(view.moves):
            x, y = coordinates[move]
            lines.append(f"{x},{y},{1 if ply % 2 == view.my_side else 2}")
        return [*lines, "DONE"]

    def end_session(self, session: GomocupSession, view: GameView | None) -> None:
        """Send ``END`` and let the engine exit."""
        with contextlib.suppress(BridgeError):
            session.engine.send("END")
        session.engine.close()


def _answer(engine: EngineProcess, timeout: float | None) -> str:
    """The engine's next answer, skipping its chatter; an ``ERROR`` or ``UNKNOWN`` fails."""
    while True:
        line = engine.read_line(timeout).strip()
        word = line.split(" ", 1)[0].upper()
        if not line or word in _CHATTER:
            if line:
                log.info("%s: %s", engine.label, line)
            continue
        if word in _FAILURES and _misread_info(line):
            log.info("%s: %s", engine.label, line)
            continue
        if word in _FAILURES:
            raise BridgeError(f"the engine says: {line}")
        return line


def _misread_info(line: str) -> bool:
    """Whether an ``ERROR`` or ``UNKNOWN`` line complains of a word of an ``INFO`` line."""
    word = line.split()[-1].strip(".:'\"").upper()
    return word in _INFO_KEYS or word.isdigit()


def _limits(view: GameView) -> tuple[int, int]:
    """``timeout_turn`` and ``timeout_match`` in milliseconds (0: no limit for the match)."""
    control = view.time_control
    if control.kind == "per_move":
        return max(1, control.move_ms - MARGIN_MS), 0
    if control.kind == "fischer":
        return max(1, control.initial_ms - MARGIN_MS), control.initial_ms
    budget = move_budget(view.game) if view.game is not None else 5.0
    return round(budget * 1000), 0
