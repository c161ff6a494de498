"""The CS 2360 Crusher project's ``crusher(history, side, depth, trace, n)``: the next board.

``history`` lists the boards of the game, most recent first, each as the original flat
list of ``w``, ``b`` and ``nil`` (in Python ``None`` or the string ``"nil"``) or as text
(``(w w w nil …)`` or ``WWW-WW-------BB-BBB``); the whole history may also be one text
(:func:`read_history`). ``side`` is ``w`` or ``b``, ``depth`` the exact number of plies
the minimax search looks ahead, ``trace`` whether to print the search's trace and ``n``
the cells on each side of the hexagon. The answer is the board after the chosen move, in
the representation of ``history[0]``: a list with the same symbols, or the same kind of
text.

The trace (every node searched, named by its board, and the values passed up, indented
by depth) goes to standard output like the original Lisp trace, or to ``stream``; it is
bounded by ``trace_lines`` so it cannot drown a terminal.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from gamut_engine.games.crusher import CrusherGame
from gamut_engine.games.crusher_board import (
    Board,
    BoardLike,
    board_to_lisp,
    board_to_string,
)
from gamut_engine.search.alphabeta import Searcher
from gamut_engine.search.result import Limits
from gamut_engine.search.trace import DEFAULT_TRACE_LINES

_INNERMOST_GROUP = re.compile(r"\(([^()]*)\)")
_LETTERS = {"w": 0, "b": 1}


@dataclass(frozen=True, slots=True)
class BoardStyle:
    """How a board was written, so the answer can be written the same way."""

    kind: str
    """``list`` (a sequence of cells), ``lisp`` (``(w nil …)`` text) or ``chars`` (``WW-…``)."""
    empty: Any = None
    """The value of an empty cell in a ``list``."""
    upper: bool = False
    """Whether the piece letters were capitals."""

    def write(self, board: Board) -> list[Any] | str:
        """``board`` in this style."""
        if self.kind == "lisp":
            text = board_to_lisp(board)
        elif self.kind == "chars":
            text = board_to_string(board)
        else:
            letters = "WB" if self.upper else "wb"
            return [self.empty if owner is None else letters[owner] for owner in board]
        return text.upper() if self.upper else text.lower()


def board_style(board: BoardLike) -> BoardStyle:
    """The style ``board`` is written in (see :class:`BoardStyle`)."""
    if isinstance(board, str):
        lisp = "(" in board or "nil" in board.lower().split()
        kind = "lisp" if lisp else "chars"
        letters = [char for char in board if char.lower() in _LETTERS]
        return BoardStyle(kind, upper=bool(letters) and letters[0].isupper())
    empty = next((cell for cell in board if _owner_letter(cell) is None), None)
    letters = [cell for cell in board if isinstance(cell, str) and cell.lower() in _LETTERS]
    return BoardStyle("list", empty, bool(letters) and letters[0].isupper())


def _owner_letter(cell: object) -> str | None:
    """``w`` or ``b`` for a piece cell, ``None`` for anything else."""
    if isinstance(cell, str) and cell.lower() in _LETTERS:
        return cell.lower()
    if isinstance(cell, int) and not isinstance(cell, bool) and cell in (0, 1):
        return "wb"[cell]
    return None


def read_history(text: str) -> list[str]:
    """The boards of a history text, most recent first, each as the text of one board.

    Reads the original Lisp list of boards ``((w w w nil …) (…))`` (a leading quote is
    fine; a single ``(w w …)`` is a history of one board) or one board per line, each in
    any form :func:`~gamut_engine.games.crusher_board.board_from_text` reads.
    """
    if "(" in text:
        boards = [f"({group})" for group in _INNERMOST_GROUP.findall(text) if group.strip()]
    else:
        boards = [line.strip() for line in text.splitlines() if line.strip()]
    if not boards:
        raise ValueError("the history holds no board")
    return boards


def crusher(
    history: Sequence[BoardLike] | str,
    side: str,
    depth: int,
    trace: object = False,
    n: int = 3,
    *,
    stream: TextIO | None = None,
    trace_lines: int = DEFAULT_TRACE_LINES,
) -> list[Any] | str:
    """The board after ``side``'s best move found by an exact ``depth``-ply search.

    ``ValueError`` with a sentence for a bad board, side or depth, or a finished game.
    """
    boards = read_history(history) if isinstance(history, str) else list(history)
    if not boards:
        raise ValueError("the history holds no board")
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
        raise ValueError(f"the depth must be a whole number of at least 1, not {depth!r}")
    game = CrusherGame(n=n)
    state = game.state_from_history(boards, side)
    outcome = game.outcome(state)
    if outcome is not None:
        raise ValueError(f"the game is over ({outcome.reason.replace('_', ' ')}): no move")
    out = (stream or sys.stdout) if trace else None
    searcher = Searcher(game, trace=out, trace_lines=trace_lines, trace_positions=True)
    result = searcher.search(state, Limits(depth=depth))
    after = game.play(state, result.move)
    return board_style(boards[0]).write(game.board(after))
