"""Connect Five board tables: cell layout, line shifts, Zobrist keys and five detection.

A board of ``size`` columns is laid out in a Python int with a stride of ``size + 1``
bits per row: cell (row ``r`` from the top, column ``c`` from the left) is bit
``r * stride + c``. The spare bit at the end of every row is never a cell, so a run of
stones followed along any of the four lines by shifting stops at the edge instead of
wrapping onto the next row. Moves are cell indices ``r * size + c``, the order of
:attr:`gamut_engine.core.Geometry.cells`.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import compress
from typing import NamedTuple

MIN_SIZE = 5
"""The smallest board Gamut plays."""
MAX_SIZE = 19
"""The largest board Gamut plays (columns a to s)."""
ZOBRIST_SEED = 0xC0_5E_C7_F5
"""Seed of the Zobrist tables, fixed so keys are the same in every process."""


class Connect5State(NamedTuple):
    """A Connect Five position: who owns which cell, whose turn it is and whether it is won.

    The rules' positions stop there. The search's positions (``ConnectFiveGame.search_state``)
    also carry both sides' threat patterns, kept up to date stone by stone, which only the
    evaluation, the move order and the threat searches read; a room or a random playout
    never pays for them. Compare positions by their stones or key, not as tuples.
    """

    x: int
    """Bits of the cells holding X stones (side 0)."""
    o: int
    """Bits of the cells holding O stones (side 1)."""
    turn: int
    """The side to move: 0 for X, 1 for O."""
    ply: int
    """Stones on the board, which is the number of moves played to reach the position."""
    key: int
    """64-bit Zobrist key of the stones and the side to move."""
    won: bool
    """Whether the side that moved last has five or more in a row."""
    masks: tuple[int, ...] = ()
    """Each side's threat cells along each direction (see :mod:`connect5_patterns`); empty
    in the rules' positions."""
    counts: tuple[int, ...] = ()
    """Each side's pattern worth and windows of three (see :mod:`connect5_patterns`); empty
    in the rules' positions."""


class Connect5Board:
    """Every precomputed table for one board size, shared by all games of that size."""

    def __init__(self, size: int) -> None:
        self.size = size
        """Cells along each side."""
        self.cell_count = size * size
        """Cells on the board."""
        self.stride = size + 1
        """Bits per row in the layout, one more than the board is wide."""
        self.steps: tuple[int, int, int, int] = (1, self.stride, self.stride + 1, size)
        """Bit distance to the next cell along a row, a column, a diagonal (down and to the
        right) and an anti-diagonal (down and to the left)."""
        self.positions: tuple[int, ...] = tuple(
            r * self.stride + c for r in range(size) for c in range(size)
        )
        """The bit index of every cell, by cell index."""
        self.bits: tuple[int, ...] = tuple(1 << p for p in self.positions)
        """The one-bit mask of every cell, by cell index."""
        cell_at = [-1] * (size * self.stride)
        for cell, position in enumerate(self.positions):
            cell_at[position] = cell
        self.cell_at: tuple[int, ...] = tuple(cell_at)
        """The cell index of every bit index (``-1`` for the spare bit of each row)."""
        self.mask = sum(self.bits)
        """Mask of every cell on the board."""
        self.window_starts: tuple[int, int, int, int] = tuple(  # type: ignore[assignment]
            self._window_starts(step) for step in self.steps
        )
        """For each line direction, the bits where a run of five cells on the board starts."""
        self.centre = (size // 2) * size + size // 2
        """The middle cell, where the first stone is best played."""
        rng = random.Random(ZOBRIST_SEED + size)
        self.zobrist: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(rng.getrandbits(64) for _ in self.positions),
            tuple(rng.getrandbits(64) for _ in self.positions),
        )
        """Random key of a stone of each side on each cell, by side then cell index."""
        self.side_key = rng.getrandbits(64)
        """Key mixed in when O is to move."""
        self.code_length = size * self.stride - 1
        """Bits from the first cell to the last: the length of :meth:`cell_codes`."""
        self.row_ends = sum(3 * 10 ** (r * self.stride + size) for r in range(size - 1))
        """The digit 3 at the spare bit of every row but the last, in base ten."""

    def _window_starts(self, step: int) -> int:
        """Bits whose run of five cells ``step`` apart stays on the board."""
        on_board = set(self.positions)
        starts = 0
        for position in self.positions:
            # A run that would cross an edge meets a spare bit, which is not on the board.
            if all(position + k * step in on_board for k in range(5)):
                starts |= 1 << position
        return starts

    def cells_of(self, bits: int) -> list[int]:
        """The cell indices of the set bits of ``bits``, in cell order."""
        selectors = bin(bits)[:1:-1].encode().translate(_BINARY_DIGITS)
        return list(compress(self.cell_at, selectors))

    def cell_codes(self, x: int, o: int) -> str:
        """One digit per bit, the first cell first: ``0`` an empty cell, ``1`` an X stone
        (``x``), ``2`` an O stone (``o``), ``3`` the spare bit ending a row.

        The bits of each side, written in binary and read in base ten, are added: no two
        digits add up past 3, so nothing carries, and one addition places every stone.
        """
        digits = int(f"{x:b}") + 2 * int(f"{o:b}") + self.row_ends
        return str(digits).zfill(self.code_length)[::-1]

    def key_of(self, x: int, o: int, turn: int) -> int:
        """The Zobrist key of a position built from scratch."""
        key = self.side_key if turn else 0
        for side, stones in enumerate((x, o)):
            table = self.zobrist[side]
            for cell in self.cells_of(stones):
                key ^= table[cell]
        return key

    def has_five(self, stones: int) -> bool:
        """Whether ``stones`` hold five or more cells in a row along any line."""
        for step in self.steps:
            pairs = stones & (stones >> step)
            quads = pairs & (pairs >> (2 * step))
            if quads & (stones >> (4 * step)):
                return True
        return False

    def five_line(self, stones: int) -> tuple[int, ...]:
        """The cells of one run of five or more of ``stones``, end to end; ``()`` if none.

        Runs go left to right, top to bottom, top-left to bottom-right and top-right to
        bottom-left; the first direction in that order that holds a run is taken.
        """
        for step in self.steps:
            pairs = stones & (stones >> step)
            quads = pairs & (pairs >> (2 * step))
            fives = quads & (stones >> (4 * step))
            starts = fives & ~(stones << step)
            if starts:
                position = (starts & -starts).bit_length() - 1
                run = []
                while stones >> position & 1:
                    run.append(self.cell_at[position])
                    position += step
                return tuple(run)
        return ()

    def near(self, stones: int) -> int:
        """Every cell within two king steps of ``stones`` (a 5 × 5 square around each)."""
        mask, stride = self.mask, self.stride
        grown = stones
        for _ in range(2):
            grown = (grown | (grown << 1) | (grown >> 1)) & mask
        for _ in range(2):
            grown = (grown | (grown << stride) | (grown >> stride)) & mask
        return grown


_BINARY_DIGITS = bytes.maketrans(b"01", b"\x00\x01")
"""Turns the text digits of ``bin`` into bytes that :func:`itertools.compress` tests."""


@cache
def board_for(size: int) -> Connect5Board:
    """The shared tables of a ``size`` × ``size`` board."""
    return Connect5Board(size)
