"""Gamut's line protocol: a program in any language plays any game over stdin and stdout.

One program runs for each game. The bridge writes lines of words; the program answers
each ``go`` with one line: its move in the game's notation (or ``resign``). Lines the
program writes that start with ``#`` are logged and skipped. The conversation
(documented in ``docs/bots.md``)::

    gamut 1                              protocol version
    game connect5 size=15 max_plies=400  the game and its options
    side 0 X                             the side you play (0 moves first) and its name
    time per_move 45000                  or: time untimed / time fischer 300000 2000
    position <encoding>                  } on each of your turns: the engine's encoding,
    moves h8 h9                          } the moves so far, every legal move,
    legal a1 b1 c1 …                     }
    clocks 44100 45000                   } your time and your opponent's in ms (if timed),
    go                                   } and then you answer with your move
    result win five                      at the end: win, loss or draw, and the reason
    quit                                 then your input closes
"""

from __future__ import annotations

import contextlib
import logging
from typing import Final

from gamut_client.bots.view import GameView
from gamut_client.bridges.process import BridgeError, EngineProcess
from gamut_client.bridges.sessions import SessionBot

log = logging.getLogger(__name__)

LINE_PROTOCOL_VERSION: Final = 1
"""The version of the line protocol the bridge speaks."""

ANSWER_GRACE: Final = 5.0
"""Seconds past its clock the bridge waits for a move before giving the program up."""

RESIGN: Final = "resign"
"""What a program answers ``go`` with to give up the game."""


class LineBot(SessionBot[EngineProcess]):
    """Plays any game with a program speaking Gamut's line protocol."""

    def start_session(self, view: GameView) -> EngineProcess:
        """Start the program and tell it the game."""
        program = EngineProcess(self.command, label=self.command[0])
        try:
            for line in header_lines(view):
                program.send(line)
        except BridgeError:
            program.close()
            raise
        return program

    def choose_move(self, view: GameView) -> str | None:
        """Send the position and read the program's move."""
        program = self.session(view)
        for line in turn_lines(view):
            program.send(line)
        left = view.time_left_ms()
        answer = _answer(program, None if left is None else left / 1000 + ANSWER_GRACE)
        if answer == RESIGN:
            self.resign(view)
            return None
        return answer

    def end_session(self, program: EngineProcess, view: GameView | None) -> None:
        """Send the result and ``quit``, and let the program exit."""
        with contextlib.suppress(BridgeError):
            if view is not None and view.result is not None:
                program.send(result_line(view))
            program.send("quit")
        program.close()


def header_lines(view: GameView) -> list[str]:
    """The lines that open a game: version, game and options, side, time control."""
    options = " ".join(f"{key}={value}" for key, value in view.options.items())
    control = view.time_control
    if control.kind == "per_move":
        time = f"time per_move {control.move_ms}"
    elif control.kind == "fischer":
        time = f"time fischer {control.initial_ms} {control.increment_ms}"
    else:
        time = "time untimed"
    return [
        f"gamut {LINE_PROTOCOL_VERSION}",
        f"game {view.game_name} {options}".rstrip(),
        f"side {view.my_side} {view.side_name}",
        time,
    ]


def turn_lines(view: GameView) -> list[str]:
    """The lines of one turn, ending with ``go``."""
    lines = [
        f"position {view.encoding}",
        " ".join(["moves", *view.moves]),
        " ".join(["legal", *view.legal_moves]),
    ]
    mine, theirs = view.time_left_ms(), view.time_left_ms(view.their_side)
    if mine is not None and theirs is not None:
        lines.append(f"clocks {mine} {theirs}")
    return [*lines, "go"]


def result_line(view: GameView) -> str:
    """``result win|loss|draw REASON`` for a finished game."""
    result = view.result
    assert result is not None
    if result.winner is None:
        outcome = "draw"
    else:
        outcome = "win" if result.winner == view.my_side else "loss"
    return f"result {outcome} {result.reason}"


def _answer(program: EngineProcess, timeout: float | None) -> str:
    """The program's answer, skipping blank lines and ``#`` comments."""
    while True:
        line = program.read_line(timeout).strip()
        if line.startswith("#"):
            log.info("%s: %s", program.label, line[1:].strip())
        elif line:
            return line
