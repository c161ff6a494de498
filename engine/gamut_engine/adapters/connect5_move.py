"""The Connect Five single-move program: a board in, ``(col row)`` out.

The program always plays ``X``: the original referee hands every player the board as if it
played ``X``, so ``X`` is to move and has as many stones as ``O`` or one fewer. The
board comes as the original Scheme list of lists or as plain rows of ``X``, ``O`` and
``-``; its size is read from it. The answer is the column and the row, both from 0, row
0 at the top, as the original program prints it: ``(4 1)``.

The search behind it takes a win whenever one exists and otherwise stops an immediate
loss where one move can (the original assignment's two requirements): winning moves
and forced blocks come first in Connect Five's move order, so even a search stopped
before its first iteration ends answers with one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.games.connect5_board import Connect5State
from gamut_engine.games.connect5_notation import parse_rows
from gamut_engine.search.alphabeta import Searcher
from gamut_engine.search.levels import move_budget
from gamut_engine.search.result import Limits, Result

X_TO_MOVE = 0
"""The side the program plays: ``X``, side 0."""


@dataclass(frozen=True, slots=True)
class SeedMove:
    """The program's answer: where ``X`` plays, and the search that chose it."""

    column: int
    """Column from 0 at the left."""
    row: int
    """Row from 0 at the top."""
    result: Result[Any]
    """The search's move, score, principal variation and statistics."""

    def __str__(self) -> str:
        return f"({self.column} {self.row})"


def read_board(text: str) -> tuple[ConnectFiveGame, Connect5State]:
    """The game and position of a seed board with ``X`` to move.

    ``ValueError`` with a sentence for a board that is not square, not 5 to 19 cells a
    side, already won, full, or one where ``X`` cannot be the side to move.
    """
    rows = parse_rows(text)
    widths = sorted({len(row) for row in rows})
    if not rows or widths != [len(rows)]:
        raise ValueError(f"a board must be square, not {len(rows)} rows of {widths} cells")
    game = ConnectFiveGame(size=len(rows))
    state = game.state_from_rows(rows, X_TO_MOVE)
    outcome = game.outcome(state)
    if outcome is not None:
        raise ValueError(f"the game on this board is over ({outcome.reason.replace('_', ' ')})")
    return game, state


def time_limit(game: ConnectFiveGame) -> float:
    """The original limit for one move: N/5 seconds for a board of N cells."""
    return move_budget(game)


def choose_seed_move(
    text: str, *, seconds: float | None = None, depth: int | None = None
) -> SeedMove:
    """The move ``X`` plays on the board ``text`` (the single-move programs' form).

    The search runs for ``seconds`` (default: the original N/5), or exactly ``depth`` plies
    when a depth is given (then also within ``seconds`` if both are).
    """
    game, state = read_board(text)
    if depth is None and seconds is None:
        seconds = time_limit(game)
    result = Searcher(game).search(state, Limits(depth=depth, time=seconds))
    row, column = divmod(result.move, game.size)
    return SeedMove(column, row, result)
