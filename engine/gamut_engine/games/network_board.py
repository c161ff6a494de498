"""Network's board as bitboards: square numbering, precomputed tables and the board rules.

Square ``x + 8 * y`` is the cs61b square ``xy`` (``x`` the column from the left, ``y``
the row from the top), so bit ``i`` of a Python int stands for square ``i``. Every
table here is computed once, when the module is imported; the functions are the hot
path of move generation, move application and the evaluation.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

SIZE = 8
"""Squares along each side of the board."""
SQUARES = SIZE * SIZE
"""Squares on the board."""
ALL_SQUARES = (1 << SQUARES) - 1
"""Every square of the board as a bitboard."""
CHIPS = 10
"""Chips each player owns; add moves last until both have placed them all."""
MIN_NETWORK = 6
"""Fewest chips that make a network."""

Path = tuple[int, ...]
"""A network: its chips' squares in order from one goal to the other."""
Links = dict[int, list[tuple[int, int]]]
"""For each chip, the chips it connects to and the direction of each connection."""


def square(x: int, y: int) -> int:
    """The index of the square in column ``x`` and row ``y`` (both from 0)."""
    return x + SIZE * y


def _mask(squares: Iterator[int] | list[int]) -> int:
    bits = 0
    for index in squares:
        bits |= 1 << index
    return bits


CORNERS = _mask([square(0, 0), square(7, 0), square(0, 7), square(7, 7)])
"""The four dead corners."""
LEFT = _mask(square(0, y) for y in range(1, 7))
"""Column 0 without its corners."""
RIGHT = _mask(square(7, y) for y in range(1, 7))
"""Column 7 without its corners."""
TOP = _mask(square(x, 0) for x in range(1, 7))
"""Row 0 without its corners."""
BOTTOM = _mask(square(x, 7) for x in range(1, 7))
"""Row 7 without its corners."""
INTERIOR = _mask(square(x, y) for x in range(1, 7) for y in range(1, 7))
"""The 36 squares off the border, open to both players."""

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
)
"""The eight line directions ``(dx, dy)``; the first four run towards higher square indices."""


def _on_board(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def _ray(index: int, dx: int, dy: int) -> int:
    x, y = index % SIZE + dx, index // SIZE + dy
    bits = 0
    while _on_board(x, y):
        bits |= 1 << square(x, y)
        x, y = x + dx, y + dy
    return bits


def _rays(index: int, directions: range) -> tuple[tuple[int, int], ...]:
    rays = ((d, _ray(index, *DIRECTIONS[d])) for d in directions)
    return tuple((d, bits) for d, bits in rays if bits)


UP_RAYS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    _rays(index, range(4)) for index in range(SQUARES)
)
"""Per square, ``(direction, squares beyond it)`` for the directions of rising index."""
DOWN_RAYS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    _rays(index, range(4, 8)) for index in range(SQUARES)
)
"""Per square, ``(direction, squares beyond it)`` for the directions of falling index."""


def _between(a: int, b: int) -> int:
    """The squares strictly between squares ``a`` and ``b`` on a line, or 0 off a line."""
    for _, ray in (*UP_RAYS[a], *DOWN_RAYS[a]):
        if ray >> b & 1:
            return ray & ~_beyond(a, b, ray)
    return 0


def _beyond(a: int, b: int, ray: int) -> int:
    """``b`` and the squares of ``ray`` (running from ``a``) past it."""
    if b > a:
        return ~((1 << b) - 1)
    return (1 << (b + 1)) - 1


BETWEEN: tuple[tuple[int, ...], ...] = tuple(
    tuple(_between(a, b) for b in range(SQUARES)) for a in range(SQUARES)
)
"""Per pair of squares, the squares strictly between them on their line (0 off a line)."""
NEIGHBOURS: tuple[int, ...] = tuple(
    _mask(
        square(index % SIZE + dx, index // SIZE + dy)
        for dx, dy in DIRECTIONS
        if _on_board(index % SIZE + dx, index // SIZE + dy)
    )
    for index in range(SQUARES)
)
"""Per square, the up to eight squares touching it orthogonally or diagonally."""

_ZOBRIST_RANDOM = random.Random(0x4E455457)
ZOBRIST: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(_ZOBRIST_RANDOM.getrandbits(64) for _ in range(SQUARES)),
    tuple(_ZOBRIST_RANDOM.getrandbits(64) for _ in range(SQUARES)),
)
"""Per side and square, the 64-bit key of that side's chip on that square."""
ZOBRIST_SIDE = _ZOBRIST_RANDOM.getrandbits(64)
"""Mixed into the key when side 1 is to move."""


SQUARES_MEMORY = 1 << 16
"""Bitboards whose squares are remembered before the memory is cleared."""

_squares_memory: dict[int, tuple[int, ...]] = {}


def squares_of(bits: int) -> tuple[int, ...]:
    """The squares in a bitboard, lowest index first.

    Remembered by bitboard: a search asks about the same sets of chips over and over.
    """
    found = _squares_memory.get(bits)
    if found is None:
        if len(_squares_memory) >= SQUARES_MEMORY:
            _squares_memory.clear()
        found = _squares_memory[bits] = _squares(bits)
    return found


def _squares(bits: int) -> tuple[int, ...]:
    """The squares in a bitboard, lowest index first, worked out."""
    found = []
    while bits:
        low = bits & -bits
        found.append(low.bit_length() - 1)
        bits ^= low
    return tuple(found)


def board_key(chips0: int, chips1: int, side: int) -> int:
    """The Zobrist key of a board with ``side`` to move, computed from scratch."""
    key = ZOBRIST_SIDE if side else 0
    for index in squares_of(chips0):
        key ^= ZOBRIST[0][index]
    for index in squares_of(chips1):
        key ^= ZOBRIST[1][index]
    return key


def cluster_squares(own: int) -> int:
    """Squares where one more chip would make a group of three or more of ``own``.

    That is a square touching two of the chips, or touching a chip that already
    touches another one.
    """
    once = twice = 0
    bits = own
    while bits:
        low = bits & -bits
        around = NEIGHBOURS[low.bit_length() - 1]
        if around & own:
            twice |= around
        twice |= once & around
        once |= around
        bits ^= low
    return twice


def has_cluster(own: int) -> bool:
    """Whether some chips of ``own`` form a connected group of three or more."""
    return any(cluster_squares(own & ~(1 << index)) >> index & 1 for index in squares_of(own))


def linked(index: int, own: int, occupied: int) -> list[tuple[int, int]]:
    """The chips of ``own`` that the chip on ``index`` connects to, with their directions.

    Along each line the connection goes to the first chip seen; any chip in between,
    whoever owns it, blocks the line.
    """
    found = []
    for direction, ray in UP_RAYS[index]:
        seen = ray & occupied
        if seen:
            first = seen & -seen
            if first & own:
                found.append((first.bit_length() - 1, direction))
    for direction, ray in DOWN_RAYS[index]:
        seen = ray & occupied
        if seen:
            first = seen.bit_length() - 1
            if own >> first & 1:
                found.append((first, direction))
    return found


def gains_link(index: int, chips: int, occupied: int) -> bool:
    """Whether an empty square ``index`` lies on a line between two of ``chips``.

    Only then can emptying that square (a step move away from it) connect two of
    those chips that could not see each other before.
    """
    ends = 0
    for direction, ray in UP_RAYS[index]:
        seen = ray & occupied
        if seen and (seen & -seen) & chips:
            ends |= 1 << direction
    for direction, ray in DOWN_RAYS[index]:
        seen = ray & occupied
        if seen and chips >> (seen.bit_length() - 1) & 1:
            ends |= 1 << direction
    return bool(ends & (ends >> 4))


def add_move(target: int) -> int:
    """The move that places a chip on ``target``: the square index itself."""
    return target


def step_move(origin: int, target: int) -> int:
    """The move that steps a chip from ``origin`` to ``target``."""
    return (origin + 1) << 6 | target


def move_origin(move: int) -> int:
    """The square a step move leaves, or -1 for an add move."""
    return (move >> 6) - 1


def move_target(move: int) -> int:
    """The square a move puts a chip on."""
    return move & 63


MOVE_LIMIT = (SQUARES + 1) << 6
"""Every move is an int in ``range(MOVE_LIMIT)``."""
