"""Lines of Action board tables: squares, lines, rays, Zobrist keys and connectivity.

A board of ``size`` files is laid out in a Python int with a stride of ``size + 1``
bits per rank: square ``rank * stride + file`` (rank 0 is rank 1, file 0 is file a).
The spare bit at the end of every rank is never occupied, so a shift by one bit or
one stride can never wrap a piece from one edge of the board onto the other once
the result is masked with real pieces, and flood fills need no edge masks.
"""

from __future__ import annotations

import random
from functools import cache
from typing import NamedTuple

SIZES = (5, 6, 8)
"""The board sizes Gamut plays."""

LINE_DIRECTIONS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((0, 1), (0, -1)),
    ((1, 0), (-1, 0)),
    ((1, 1), (-1, -1)),
    ((1, -1), (-1, 1)),
)
"""The four lines through a square (rank, column, diagonal, anti-diagonal), each as its
two opposite ``(rank step, file step)`` directions."""


class LoaMove(NamedTuple):
    """A move of the piece on ``origin`` to ``target``; ``capture`` if it takes a piece there."""

    origin: int
    """Square index the piece leaves (``-1`` for a pass)."""
    target: int
    """Square index the piece lands on (``-1`` for a pass)."""
    capture: bool
    """Whether an enemy piece stands on ``target`` and is taken."""


PASS = LoaMove(-1, -1, False)
"""The pass, the only legal move of a side that has no piece move."""


class RayStep(NamedTuple):
    """Where a piece lands moving ``n`` cells one way, and what it passes over."""

    target_bit: int
    """The landing square as a one-bit mask."""
    between: int
    """Mask of the squares strictly between the origin and the landing square."""
    quiet: LoaMove
    """The move, ready made, when the landing square is empty."""
    capture: LoaMove
    """The move, ready made, when the landing square holds an enemy piece."""


Ray = tuple[RayStep | None, ...]
"""Steps one way along a line, indexed by distance; ``None`` where that leaves the board."""

LineEntry = tuple[int, Ray, Ray]
"""One line through a square: its mask (the whole line, edge to edge) and its two rays."""


class LoaBoard:
    """Every precomputed table for one board size, shared by all games of that size."""

    def __init__(self, size: int) -> None:
        self.size = size
        """Cells along each side."""
        self.stride = size + 1
        """Bits per rank in the layout, one more than the board is wide."""
        self.squares: tuple[int, ...] = tuple(
            r * self.stride + c for r in range(size) for c in range(size)
        )
        """Every square index, rank 1 first."""
        self.board_mask = sum(1 << sq for sq in self.squares)
        """Mask of every square on the board."""
        self.names: dict[int, str] = {
            r * self.stride + c: f"{chr(ord('a') + c)}{r + 1}"
            for r in range(size)
            for c in range(size)
        }
        """Square index to its cell name (``b3``)."""
        self.index: dict[str, int] = {name: sq for sq, name in self.names.items()}
        """Cell name to its square index."""
        self.lines: dict[int, tuple[LineEntry, ...]] = {
            sq: self._lines_through(sq) for sq in self.squares
        }
        """For each square, the four lines through it with their masks and rays."""
        self.neighbours: dict[int, int] = {sq: self._neighbour_mask(sq) for sq in self.squares}
        """For each square, the mask of the (up to 8) squares touching it."""
        rng = random.Random(f"gamut-loa-{size}")
        self.zobrist: tuple[dict[int, int], dict[int, int]] = (
            {sq: rng.getrandbits(64) for sq in self.squares},
            {sq: rng.getrandbits(64) for sq in self.squares},
        )
        """Random 64-bit numbers for a piece of each side on each square."""
        self.zobrist_white_to_move = rng.getrandbits(64)
        """Mixed into the key when White is to move."""

    def square(self, rank: int, file: int) -> int | None:
        """The square index at a 0-based rank and file, or ``None`` off the board."""
        if 0 <= rank < self.size and 0 <= file < self.size:
            return rank * self.stride + file
        return None

    def coordinates(self, sq: int) -> tuple[int, int]:
        """The 0-based ``(rank, file)`` of a square index."""
        return divmod(sq, self.stride)

    def mask_of(self, names: str) -> int:
        """The mask of the space-separated cell names in ``names``."""
        return sum(1 << self.index[name] for name in names.split())

    def start(self) -> tuple[int, int]:
        """Black's and White's pieces at the start: along the edges, corners left empty."""
        inner = range(1, self.size - 1)
        top = self.size - 1
        black = sum(1 << sq for c in inner for sq in (c, top * self.stride + c))
        white = sum(1 << sq for r in inner for sq in (r * self.stride, r * self.stride + top))
        return black, white

    def key_of(self, black: int, white: int, side: int) -> int:
        """The Zobrist key of a position computed from scratch."""
        key = self.zobrist_white_to_move if side else 0
        for colour, pieces in enumerate((black, white)):
            for sq in bits(pieces):
                key ^= self.zobrist[colour][sq]
        return key

    def moves(self, own: int, enemy: int) -> list[LoaMove]:
        """Every piece move of the side owning ``own`` against ``enemy``, captures flagged."""
        occupied = own | enemy
        lines = self.lines
        found: list[LoaMove] = []
        append = found.append
        pieces = own
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            for mask, forward, backward in lines[low.bit_length() - 1]:
                count = (occupied & mask).bit_count()
                step = forward[count]
                if step is not None and not (step.between & enemy or step.target_bit & own):
                    append(step.capture if step.target_bit & enemy else step.quiet)
                step = backward[count]
                if step is not None and not (step.between & enemy or step.target_bit & own):
                    append(step.capture if step.target_bit & enemy else step.quiet)
        return found

    def line_between(self, origin: int, target: int) -> tuple[int, int, int] | None:
        """``(line, way, distance)`` from ``origin`` to ``target``, or ``None`` off every line.

        ``line`` indexes :attr:`lines` entries and ``way`` is 0 forward, 1 backward.
        """
        (rank, file), (to_rank, to_file) = self.coordinates(origin), self.coordinates(target)
        d_rank, d_file = to_rank - rank, to_file - file
        distance = max(abs(d_rank), abs(d_file))
        if distance == 0 or (d_rank and d_file and abs(d_rank) != abs(d_file)):
            return None
        step = (d_rank // distance, d_file // distance)
        for line, directions in enumerate(LINE_DIRECTIONS):
            if step in directions:
                return line, directions.index(step), distance
        return None  # pragma: no cover - every unit step is in LINE_DIRECTIONS

    def connected(self, pieces: int) -> bool:
        """Whether ``pieces`` form a single 8-connected group (one piece does; none does not)."""
        if not pieces:
            return False
        return self.group_of(pieces & -pieces, pieces) == pieces

    def group_of(self, seed: int, pieces: int) -> int:
        """The group of ``pieces`` 8-connected to the ``seed`` bits."""
        stride = self.stride
        group = seed
        while True:
            row = group | group << 1 | group >> 1
            grown = (row | row << stride | row >> stride) & pieces
            if grown == group:
                return group
            group = grown

    def group_count(self, pieces: int) -> int:
        """How many separate 8-connected groups ``pieces`` form."""
        count = 0
        while pieces:
            pieces ^= self.group_of(pieces & -pieces, pieces)
            count += 1
        return count

    def _lines_through(self, sq: int) -> tuple[LineEntry, ...]:
        """The four lines through ``sq`` with their masks and rays."""
        entries = []
        for forward, backward in LINE_DIRECTIONS:
            ray_forward = self._ray(sq, forward)
            ray_backward = self._ray(sq, backward)
            mask = 1 << sq
            for ray in (ray_forward, ray_backward):
                for step in ray:
                    if step is not None:
                        mask |= step.target_bit
            entries.append((mask, ray_forward, ray_backward))
        return tuple(entries)

    def _ray(self, sq: int, direction: tuple[int, int]) -> Ray:
        """Landing squares ``sq`` reaches one way, by distance 0 (none) to ``size``."""
        rank, file = self.coordinates(sq)
        steps: list[RayStep | None] = [None]
        between = 0
        for distance in range(1, self.size + 1):
            target = self.square(rank + direction[0] * distance, file + direction[1] * distance)
            if target is None:
                steps.append(None)
                continue
            steps.append(
                RayStep(1 << target, between, LoaMove(sq, target, False), LoaMove(sq, target, True))
            )
            between |= 1 << target
        return tuple(steps)

    def _neighbour_mask(self, sq: int) -> int:
        """The squares touching ``sq`` orthogonally or diagonally."""
        rank, file = self.coordinates(sq)
        mask = 0
        for dr in (-1, 0, 1):
            for df in (-1, 0, 1):
                other = self.square(rank + dr, file + df)
                if other is not None and other != sq:
                    mask |= 1 << other
        return mask


@cache
def board_for(size: int) -> LoaBoard:
    """The shared tables for boards of ``size`` cells a side."""
    return LoaBoard(size)


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    indices = []
    while mask:
        low = mask & -mask
        indices.append(low.bit_length() - 1)
        mask ^= low
    return indices
