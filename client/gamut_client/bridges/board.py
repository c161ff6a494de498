"""Boards as external programs see them: cells by column and row, and single-move texts.

Coordinates count from 0, the column from the left and the row from the top, as in
the Gomocup protocol and the single-move programs' ``(col row)``. Their board is rows
of ``X``, ``O`` and ``-``, top row first, either plain or as the Scheme list of lists
that the programs ``(read)``.
"""

from __future__ import annotations

from functools import cache
from typing import Final, Literal

from gamut_client.bridges.process import BridgeError
from gamut_protocol import GameDescriptor, Position, Side

EMPTY: Final = "-"
"""The single-move programs' symbol for an empty cell."""

BoardFormat = Literal["scheme", "rows"]
"""How a single-move program's board is written: the Scheme list of lists, or plain rows."""


def cell_coordinates(descriptor: GameDescriptor) -> dict[str, tuple[int, int]]:
    """Each cell's ``(column, row)`` from the top left."""
    return _coordinates(descriptor.geometry.rows)


@cache
def _coordinates(rows: tuple[tuple[str, ...], ...]) -> dict[str, tuple[int, int]]:
    """Each cell's ``(column, row)`` in ``rows``, kept for the next game of the same board."""
    return {
        name: (column, row) for row, names in enumerate(rows) for column, name in enumerate(names)
    }


def cell_at(descriptor: GameDescriptor, column: int, row: int) -> str:
    """The name of the cell at ``column``, ``row``; :class:`BridgeError` off the board."""
    rows = descriptor.geometry.rows
    if not (0 <= row < len(rows) and 0 <= column < len(rows[row])):
        raise BridgeError(f"({column} {row}) is not on the board")
    return rows[row][column]


def mover_rows(descriptor: GameDescriptor, position: Position, mover: Side) -> list[str]:
    """The board's rows as ``X``/``O``/``-`` text with the ``mover``'s stones as ``X``."""
    symbols = ("X", "O") if mover == 0 else ("O", "X")
    cells = iter(position.board)
    return [
        "".join(EMPTY if (owner := next(cells)) is None else symbols[owner] for _ in names)
        for names in descriptor.geometry.rows
    ]


def board_text(rows: list[str], form: BoardFormat) -> str:
    """A single-move program's board text: ``(list (list '- 'X …) …)`` or one row per line."""
    if form == "rows":
        return "\n".join(rows) + "\n"
    lists = ["(list " + " ".join(f"'{symbol}" for symbol in row) + ")" for row in rows]
    return "(list " + "\n      ".join(lists) + ")\n"
