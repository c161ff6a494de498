"""Crusher's hexagonal board: cell names, bitboard layout and the original board texts.

The board is a hexagon with ``n`` cells a side: rows ``a``, ``b``, … from the top hold
``n``, ``n + 1``, …, ``2n - 1``, …, ``n`` cells, each row drawn centred. A cell is named by
its row letter and its position in the row from the left, so the top-left cell is ``a1``
and the centre of the ``n = 3`` board is ``c3``.

Two orders matter. The public *cell order* lists the cells row by row from the top, left to
right, as :attr:`gamut_engine.core.Geometry.cells` and the original flat board lists do. The
private *grid order* places cell ``(x, y)`` of the axial coordinates at bit
``(y + R) * W + (x + R)`` of a Python int, with ``R = n - 1`` and a spare column
(``W = 2R + 2``), so that stepping in any of the six directions is one shift and no step
wraps round from one edge of the board to the other.

A *board* in the public helpers is a tuple with one entry per cell in cell order: ``0`` for a
White piece, ``1`` for a Black piece, ``None`` for an empty cell (the same tuple
:meth:`Game.occupancy` returns).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence

MIN_N = 2
"""The smallest board: two cells a side."""
MAX_N = 13
"""The largest board: ``2n - 1`` rows must fit the letters ``a`` to ``z``."""

Board = tuple[int | None, ...]
"""One entry per cell in cell order: the owning side (0 White, 1 Black) or ``None``."""

BoardLike = str | Sequence[str | int | None]
"""A board as text (see :func:`board_from_text`) or one entry per cell (:func:`board_from_list`)."""

CELL_WORDS: dict[str, int | None] = {
    "w": 0,
    "b": 1,
    "nil": None,
    "none": None,
    "-": None,
    ".": None,
}
"""Words accepted for one cell in a board list (case does not matter)."""

CELL_CHARS: dict[str, int | None] = {"w": 0, "b": 1, "-": None, ".": None}
"""Characters accepted for one cell in a board string such as ``WWW-WW-------BB-BBB``."""

_PUNCTUATION = re.compile(r"[()\[\],'\"/|]")

AXIAL_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1))
"""The six neighbour steps ``(dx, dy)`` in axial coordinates: east, west, south-east,
north-west, south-west, north-east (``y`` grows downwards)."""

ZOBRIST_SEED = 0xC2_05_4E_2F
"""Fixed seed of the random table behind the Zobrist keys, so keys never change."""


def cell_count(n: int) -> int:
    """Cells on a board with ``n`` cells a side: ``3n² - 3n + 1``."""
    return 3 * n * n - 3 * n + 1


def side_for_cell_count(count: int) -> int | None:
    """The ``n`` whose board has ``count`` cells, or ``None`` if no board has that many."""
    n = round((3 + math.sqrt(max(0, 12 * count - 3))) / 6)
    return n if n >= MIN_N and cell_count(n) == count else None


def row_lengths(n: int) -> tuple[int, ...]:
    """Cells in each row from the top: ``n``, ``n + 1``, …, ``2n - 1``, …, ``n``."""
    return tuple(2 * n - 1 - abs(row - (n - 1)) for row in range(2 * n - 1))


class Layout:
    """Every precomputed table for one board size; built once per game."""

    def __init__(self, n: int) -> None:
        self.n = n
        """Cells on each side of the hexagon."""
        radius = n - 1
        self.width = 2 * radius + 2
        """Bits per row in grid order, including the spare column."""
        self.half = (2 * radius + 1) * self.width
        """Bits of one side's bitboard: Black's pieces sit this many bits above White's."""
        self.rows = self._row_names(n)
        """Cell names row by row from the top."""
        self.names: tuple[str, ...] = tuple(name for row in self.rows for name in row)
        """Cell names in cell order."""
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        """Cell order index of each cell name."""
        self.axial: tuple[tuple[int, int], ...] = self._axial_cells(n)
        """Axial coordinates ``(x, y)`` of each cell in cell order, the centre ``(0, 0)``."""
        self.grid: tuple[int, ...] = tuple(self._grid_index(x, y) for x, y in self.axial)
        """Grid bit index of each cell in cell order."""
        self.bits: tuple[int, ...] = tuple(1 << g for g in self.grid)
        """Grid bit (``1 << grid index``) of each cell in cell order."""
        self.cell_at: dict[int, int] = {g: i for i, g in enumerate(self.grid)}
        """Cell order index of each grid bit index on the board."""
        self.mask = sum(self.bits)
        """Every cell of the board as one bitboard."""
        self.shifts: tuple[int, ...] = tuple(dx + dy * self.width for dx, dy in AXIAL_DIRECTIONS)
        """Grid shift of one step in each direction of :data:`AXIAL_DIRECTIONS`."""
        self.neighbours: tuple[tuple[int | None, ...], ...] = self._steps(1)
        """For each cell and direction, the adjacent cell (cell order) or ``None`` off the board."""
        self.beyond: tuple[tuple[int | None, ...], ...] = self._steps(2)
        """For each cell and direction, the cell two steps away or ``None`` off the board."""
        self.zobrist: tuple[tuple[int, ...], tuple[int, ...]] = self._zobrist_pieces()
        """Random 64-bit key of a White (``[0]``) and a Black (``[1]``) piece on each cell."""
        self.zobrist_black_to_move = random.Random(ZOBRIST_SEED + 1).getrandbits(64)
        """Key mixed in when Black is to move."""
        self.start = self._start_board()
        """The start position as a board int (White's bits, then Black's above ``half``)."""

    @staticmethod
    def _row_names(n: int) -> tuple[tuple[str, ...], ...]:
        letters = "abcdefghijklmnopqrstuvwxyz"
        return tuple(
            tuple(f"{letters[row]}{pos}" for pos in range(1, length + 1))
            for row, length in enumerate(row_lengths(n))
        )

    @staticmethod
    def _axial_cells(n: int) -> tuple[tuple[int, int], ...]:
        radius = n - 1
        cells: list[tuple[int, int]] = []
        for y in range(-radius, radius + 1):
            for x in range(max(-radius, -radius - y), min(radius, radius - y) + 1):
                cells.append((x, y))
        return tuple(cells)

    def _grid_index(self, x: int, y: int) -> int:
        radius = self.n - 1
        return (y + radius) * self.width + (x + radius)

    def _steps(self, distance: int) -> tuple[tuple[int | None, ...], ...]:
        where = {xy: i for i, xy in enumerate(self.axial)}
        return tuple(
            tuple(where.get((x + distance * dx, y + distance * dy)) for dx, dy in AXIAL_DIRECTIONS)
            for x, y in self.axial
        )

    def _zobrist_pieces(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        rng = random.Random(ZOBRIST_SEED)
        white = tuple(rng.getrandbits(64) for _ in self.names)
        black = tuple(rng.getrandbits(64) for _ in self.names)
        return white, black

    def _start_board(self) -> int:
        rows = self.rows
        white = rows[0] + rows[1][1:-1]
        black = rows[-1] + rows[-2][1:-1]
        if self.n == 2:
            # Both sides' second row is the middle row, whose one inner cell both would
            # claim: each side takes an end cell instead, turned half round from the other.
            white = rows[0] + rows[1][:1]
            black = rows[-1] + rows[1][-1:]
        board = 0
        for side, names in enumerate((white, black)):
            for name in names:
                board |= self.bits[self.index[name]] << (side * self.half)
        return board

    def board_int(self, board: Board) -> int:
        """The board int of a public board tuple (which must have one entry per cell)."""
        value = 0
        for bit, owner in zip(self.bits, board, strict=True):
            if owner is not None:
                value |= bit << (owner * self.half)
        return value

    def board_tuple(self, value: int) -> Board:
        """The public board tuple of a board int."""
        white = value & self.mask
        black = value >> self.half
        return tuple(0 if white & bit else 1 if black & bit else None for bit in self.bits)

    def key_of(self, value: int, side: int) -> int:
        """The Zobrist key of a board int with ``side`` to move, computed from scratch."""
        key = self.zobrist_black_to_move if side else 0
        for i, bit in enumerate(self.bits):
            if value & bit:
                key ^= self.zobrist[0][i]
            elif (value >> self.half) & bit:
                key ^= self.zobrist[1][i]
        return key


def board_from_text(text: str, n: int | None = None) -> Board:
    """Read a board written in any of the original forms; ``n`` is checked or inferred.

    Accepted: a Lisp list ``(w w w nil w w …)``, a Python-style list ``['w', None, …]``,
    a diagram of ``W``, ``B`` and ``-`` separated by spaces and line breaks (as the original
    draws boards), or a string of one character per cell such as ``WWW-WW-------BB-BBB``
    (``.`` also means empty; ``/`` may separate rows). Case does not matter. Raises
    ``ValueError`` with a sentence for anything else or for the wrong number of cells.
    """
    tokens = _PUNCTUATION.sub(" ", text).lower().split()
    if tokens and all(token in CELL_WORDS for token in tokens):
        cells = [CELL_WORDS[token] for token in tokens]
    elif tokens and all(char in CELL_CHARS for token in tokens for char in token):
        cells = [CELL_CHARS[char] for token in tokens for char in token]
    else:
        raise ValueError(
            "expected a board as a list of w, b and nil, or a string of W, B and - "
            "with one entry per cell, row by row from the top"
        )
    return board_from_list(cells, n)


def board_from_list(cells: Sequence[str | int | None], n: int | None = None) -> Board:
    """A board from one entry per cell: ``"w"``/``0``, ``"b"``/``1``, or ``None``/``"nil"``."""
    board = [_cell_owner(cell) for cell in cells]
    size = side_for_cell_count(len(board)) if n is None else n
    if size is None or len(board) != cell_count(size):
        wanted = f"{cell_count(n)} cells for n = {n}" if n else "3n² - 3n + 1 cells (7, 19, 37, …)"
        raise ValueError(f"a board needs {wanted}, but {len(board)} were given")
    return tuple(board)


def _cell_owner(cell: str | int | None) -> int | None:
    if cell is None:
        return None
    if isinstance(cell, str) and cell.lower() in CELL_WORDS:
        return CELL_WORDS[cell.lower()]
    if isinstance(cell, int) and not isinstance(cell, bool) and cell in (0, 1):
        return cell
    raise ValueError(f"a board cell must be w, b or nil, not {cell!r}")


def board_to_list(board: Board) -> list[str | None]:
    """The board as the original flat list: ``['w', 'w', 'w', None, …]``."""
    return [None if owner is None else "wb"[owner] for owner in board]


def board_to_lisp(board: Board) -> str:
    """The board as the original Lisp list: ``(w w w nil w w nil …)``."""
    return "(" + " ".join("nil" if owner is None else "wb"[owner] for owner in board) + ")"


def board_to_string(board: Board) -> str:
    """The board as one character per cell in cell order: ``WWW-WW-------BB-BBB``."""
    return "".join("-" if owner is None else "WB"[owner] for owner in board)


def board_to_diagram(board: Board) -> str:
    """The board drawn as the CS 2360 project draws it: rows centred, cells four columns apart."""
    n = side_for_cell_count(len(board))
    if n is None:
        raise ValueError(f"no hexagonal board has {len(board)} cells")
    lines: list[str] = []
    start = 0
    for length in row_lengths(n):
        row = board_to_string(board[start : start + length])
        lines.append(" " * (2 * (2 * n - 1 - length)) + "   ".join(row))
        start += length
    return "\n".join(lines)
