"""Connect Five threat patterns kept line by line and updated one stone at a time.

The threat-space search places and tries thousands of stones a second, and computing
every pattern of the whole board afresh for each (:func:`connect5_scan.line_threats`)
costs far more than the change a stone makes: a stone only alters the four lines
through its cell. So a :class:`LinePosition` keeps, for each side and each of the four
directions, the cell masks of its threats along that direction (cells that complete
five, make a four, make an open four, make a three); :meth:`LineTables.play` replaces
just the four lines through the new stone, each line's patterns taken from a table
keyed by the line's own stones and computed once. Lines of one direction never share
a cell, so a direction's mask is the union of its lines' masks, and replacing a line
is clearing its cells and OR-ing in its new patterns. Each line's entry also counts the
worth of its patterns and its windows of three, which the positions of a game carry
(:mod:`connect5_patterns`).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from gamut_engine.games.connect5_board import Connect5Board, Connect5State
from gamut_engine.games.connect5_scan import scan_line, shifted, worth

KINDS = 4
"""Masks kept per side and direction: wins, fours, open fours, threes."""

WINS, FOURS, OPEN_FOURS, THREES = range(KINDS)
"""Offsets of the four masks of one side and direction."""

SIDE_SPAN = 4 * KINDS
"""Masks kept per side: the four directions' masks one after the other."""

COUNT_KINDS = 2
"""Counts kept per side and line after its masks: the worth of its patterns
(:func:`connect5_scan.worth`) and its windows of three stones and no enemy stone."""

WORTH, THREES = range(COUNT_KINDS)
"""Offsets of one side's counts."""

LINE_SPAN = 2 * KINDS + 2 * COUNT_KINDS
"""Items of one line's patterns: both sides' masks (side 0's first), then their counts."""

CACHE_LIMIT = 1 << 16
"""Line patterns the table keeps before it starts afresh (some 400 bytes each)."""


class LinePosition(NamedTuple):
    """Stones and the threat masks of both sides, direction by direction."""

    x: int
    """Stones of side 0."""
    o: int
    """Stones of side 1."""
    masks: tuple[int, ...]
    """``masks[side * SIDE_SPAN + direction * KINDS + kind]``: the cells of that kind."""


class SideThreats(NamedTuple):
    """One side's threats over the whole board, combined over the four directions."""

    wins: int
    """Cells that complete five."""
    fours: int
    """Cells that make a four along some line."""
    winning: int
    """Cells that make an open four or two fours at once."""
    threes: int
    """Cells that make a window of three stones and no enemy stone along some line."""


class LineTables:
    """The lines of one board size and the patterns of every line met so far."""

    def __init__(self, board: Connect5Board) -> None:
        """Tables for ``board``, no line pattern computed yet."""
        self.board = board
        self.lines: tuple[tuple[int, ...], ...] = tuple(
            tuple(_line_through(board, cell, step) for cell in range(board.cell_count))
            for step in board.steps
        )
        """``lines[direction][cell]``: the mask of the whole line through ``cell``."""
        self.keep: tuple[tuple[int, ...], ...] = tuple(
            tuple(board.mask & ~line for line in direction) for direction in self.lines
        )
        """``keep[direction][cell]``: every cell but that line."""
        self.cache: dict[tuple[int, int, int], tuple[int, ...]] = {}
        """(direction, side 0's stones, side 1's stones) on one line to its patterns."""
        self.directions = tuple(zip(range(4), self.lines, self.keep, strict=True))
        """Each direction's index with its ``lines`` and ``keep`` tables."""

    def position(self, x: int, o: int) -> LinePosition:
        """The patterns of a position computed from scratch, direction by direction."""
        board = self.board
        empty = board.mask & ~(x | o)
        masks = [0] * (2 * SIDE_SPAN)
        directions = zip(board.steps, board.window_starts, strict=True)
        for direction, (step, starts) in enumerate(directions):
            a, b, e = shifted(x, step), shifted(o, step), shifted(empty, step)
            for side, (own, enemy) in enumerate(((a, b), (b, a))):
                line = scan_line(own, enemy, e, step, starts)
                base = side * SIDE_SPAN + direction * KINDS
                masks[base : base + KINDS] = (
                    line.wins,
                    line.fours,
                    line.open_four_cells,
                    line.threes,
                )
        return LinePosition(x, o, tuple(masks))

    def position_of(self, state: Connect5State) -> LinePosition:
        """The patterns of a game's position: those it carries, else computed from scratch."""
        if state.masks:
            return LinePosition(state.x, state.o, state.masks)
        return self.position(state.x, state.o)

    def play(self, position: LinePosition, cell: int, side: int) -> LinePosition:
        """``position`` with a stone of ``side`` on the empty ``cell``."""
        bit = self.board.bits[cell]
        x, o = (position.x, position.o | bit) if side else (position.x | bit, position.o)
        masks = list(position.masks)
        for direction, lines, keeps in self.directions:
            line = lines[cell]
            replace_masks(masks, self.patterns(direction, x, o, line), direction, keeps[cell])
        return LinePosition(x, o, tuple(masks))

    def patterns(self, direction: int, x: int, o: int, line: int) -> tuple[int, ...]:
        """The :data:`LINE_SPAN` patterns of ``line`` holding the stones of ``x`` and ``o``."""
        key = (direction, x & line, o & line)
        found = self.cache.get(key)
        if found is None:
            if len(self.cache) > CACHE_LIMIT:
                self.cache.clear()
            found = self.cache[key] = self._line_patterns(direction, key[1], key[2], line)
        return found

    def _line_patterns(self, direction: int, x: int, o: int, line: int) -> tuple[int, ...]:
        """One line's masks and counts, computed bit-parallel."""
        step = self.board.steps[direction]
        starts = self.board.window_starts[direction] & line
        a, b, e = shifted(x, step), shifted(o, step), shifted(line & ~(x | o), step)
        masks: list[int] = []
        counts: list[int] = []
        for own, enemy in ((a, b), (b, a)):
            threats = scan_line(own, enemy, e, step, starts)
            masks += (threats.wins, threats.fours, threats.open_four_cells, threats.threes)
            counts += (worth(threats), threats.three_windows)
        return (*(mask & line for mask in masks), *counts)


def replace_masks(masks: list[int], patterns: tuple[int, ...], direction: int, keep: int) -> None:
    """Put one line's masks from ``patterns`` in ``masks`` (``keep``: every cell off the line)."""
    b = direction * KINDS
    masks[b] = masks[b] & keep | patterns[0]
    masks[b + 1] = masks[b + 1] & keep | patterns[1]
    masks[b + 2] = masks[b + 2] & keep | patterns[2]
    masks[b + 3] = masks[b + 3] & keep | patterns[3]
    b += SIDE_SPAN
    masks[b] = masks[b] & keep | patterns[4]
    masks[b + 1] = masks[b + 1] & keep | patterns[5]
    masks[b + 2] = masks[b + 2] & keep | patterns[6]
    masks[b + 3] = masks[b + 3] & keep | patterns[7]


def position_of(state: Connect5State) -> LinePosition:
    """The stones and threat masks a search's position carries, as the threat search reads them.

    Only for positions that carry them (``ConnectFiveGame.search_state``); see
    :meth:`LineTables.position_of` for any position.
    """
    return LinePosition(state.x, state.o, state.masks)


@cache
def line_tables(board: Connect5Board) -> LineTables:
    """The tables of ``board``, made once and shared: line patterns depend on nothing else."""
    return LineTables(board)


def side_threats(position: LinePosition, side: int) -> SideThreats:
    """The threats of ``side`` in ``position``, combined over the four directions."""
    m = position.masks
    base = side * SIDE_SPAN
    f0, f1, f2, f3 = m[base + 1], m[base + 5], m[base + 9], m[base + 13]
    two_fours = f1 & f0 | f2 & (f0 | f1) | f3 & (f0 | f1 | f2)
    return SideThreats(
        m[base] | m[base + 4] | m[base + 8] | m[base + 12],
        f0 | f1 | f2 | f3,
        m[base + 2] | m[base + 6] | m[base + 10] | m[base + 14] | two_fours,
        m[base + 3] | m[base + 7] | m[base + 11] | m[base + 15],
    )


def double_threats(position: LinePosition, side: int) -> int:
    """Cells where ``side`` makes a four or a three along two directions or more at once."""
    m = position.masks
    base = side * SIDE_SPAN
    g0, g1 = m[base + 1] | m[base + 3], m[base + 5] | m[base + 7]
    g2, g3 = m[base + 9] | m[base + 11], m[base + 13] | m[base + 15]
    return g1 & g0 | g2 & (g0 | g1) | g3 & (g0 | g1 | g2)


def wins_of(position: LinePosition, side: int) -> int:
    """The cells where ``side`` completes five."""
    m = position.masks
    base = side * SIDE_SPAN
    return m[base] | m[base + 4] | m[base + 8] | m[base + 12]


def _line_through(board: Connect5Board, cell: int, step: int) -> int:
    """The mask of every cell on the line through ``cell`` along ``step``."""
    on_board = set(board.positions)
    position = board.positions[cell]
    mask = 0
    for sign in (1, -1):
        at = position
        while at in on_board:
            mask |= 1 << at
            at += sign * step
    return mask
