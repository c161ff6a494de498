"""Connect Five notation: cell names, the original ``(col row)`` moves and board texts.

Canonical cell names are a column letter and a row number with ``a1`` at the bottom
left (columns ``a`` to ``s``, rows 1 to 19). The course project Connect Five comes
from names a cell ``(col row)``, both counted from 0, with row 0 at the top; Gamut
reads that form too. Boards come as rows of ``X``, ``O`` and ``-``, either as plain
text or as the project's Scheme list of lists.
"""

from __future__ import annotations

import re

from gamut_engine.core import IllegalMoveError, InvalidMoveError

EMPTY = "-"
"""The symbol of an empty cell in board texts."""
SIDE_SYMBOLS = ("X", "O")
"""The symbol of each side's stones, by side index."""

_CELL_NAME = re.compile(r"\s*([a-z])\s*(\d{1,2})\s*", re.IGNORECASE)
_SEED_MOVE = re.compile(r"\s*\(?\s*(-?\d{1,2})\s*(?:,\s*|\s+)(-?\d{1,2})\s*\)?\s*")
_INNERMOST_GROUP = re.compile(r"\(([^()]*)\)")
_SYMBOLS = {"X": "X", "O": "O", "-": EMPTY, ".": EMPTY, "_": EMPTY}

EXPECTED_MOVE = (
    "expected a cell such as h8 (a column letter, then the row number counted from 1 at the "
    "bottom) or 0-based coordinates such as (7 7) (the column, then the row counted from 0 at "
    "the top)"
)
"""What :func:`parse_cell` says when the text is no move at all."""


def cell_name(size: int, cell: int) -> str:
    """The canonical name of ``cell`` (row-major from the top left) on a ``size`` board."""
    row, column = divmod(cell, size)
    return f"{chr(ord('a') + column)}{size - row}"


def seed_move(size: int, cell: int) -> str:
    """``cell`` written the course project's way: ``(col row)``, 0-based, row 0 at the top."""
    row, column = divmod(cell, size)
    return f"({column} {row})"


def parse_cell(size: int, text: str) -> int:
    """The cell index that ``text`` names, in the canonical or the 0-based form.

    Raises :class:`InvalidMoveError` for text in neither form and
    :class:`IllegalMoveError` (``off_board``) for a cell outside the board.
    """
    named = _CELL_NAME.fullmatch(text)
    if named:
        column = ord(named.group(1).lower()) - ord("a")
        row = size - int(named.group(2))
    else:
        seeded = _SEED_MOVE.fullmatch(text)
        if not seeded:
            raise InvalidMoveError(f"{text.strip()!r} is not a move: {EXPECTED_MOVE}")
        column, row = int(seeded.group(1)), int(seeded.group(2))
    if not (0 <= column < size and 0 <= row < size):
        raise off_board_error(size)
    return row * size + column


def off_board_error(size: int) -> IllegalMoveError:
    """The error for a cell outside a ``size`` board."""
    last = chr(ord("a") + size - 1)
    return IllegalMoveError(
        "off_board",
        f"That cell is not on the board: columns run from a to {last} and rows from 1 to "
        f"{size} (0-based coordinates from 0 to {size - 1}).",
    )


def parse_rows(text: str) -> list[str]:
    """The rows of a board text, top first, each a string of ``X``, ``O`` and ``-``.

    Reads the Scheme form ``(list (list '- 'X …) …)`` (any list whose innermost
    parenthesised groups are the rows) or plain text with one row per line. Letters may
    be in either case, whitespace is ignored and ``.`` or ``_`` also mark an empty cell.
    Raises ``ValueError`` naming the first symbol that is not a stone or an empty cell.
    """
    if "(" in text:
        groups = _INNERMOST_GROUP.findall(text)
        rows = [[t.lstrip("'") for t in group.split() if t.lower() != "list"] for group in groups]
    else:
        rows = [list("".join(line.split())) for line in text.splitlines()]
    return ["".join(_symbol(token) for token in row) for row in rows if row]


def _symbol(token: str) -> str:
    """The board symbol that one token of a board text stands for."""
    try:
        return _SYMBOLS[token.upper()]
    except KeyError:
        raise ValueError(
            f"{token!r} is not a board symbol: use X and O for stones and - for an empty cell"
        ) from None
