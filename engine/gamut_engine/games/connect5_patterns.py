"""Connect Five's evaluation and move order, over patterns the position carries.

Scanning the whole board for every side's threats (:func:`connect5_scan.line_threats`)
at every leaf and every node of the search costs far more than what a move changes: a
stone alters only the four lines through its cell. So each
:class:`~gamut_engine.games.connect5_board.Connect5State` carries its patterns, and
:meth:`PatternTables.play` updates just those four lines:

- ``masks``: for each side and direction, the cells that complete five, make a four,
  make an open four and make a three, laid out as
  :attr:`~gamut_engine.games.connect5_lines.LinePosition.masks` (the threat search reads
  the same layout);
- ``counts``: for each side, summed over every line, the worth of its patterns (the
  weighted sum :func:`connect5_scan.worth` makes of them) and its windows of five with
  three stones and no enemy stone.

A line's masks and counts depend only on the stones on it, so they are computed once per
line content (bit-parallel, as the whole-board scan does) and kept in a table shared by
every game of the board size. Lines of one direction share no cell, and every window of
five lies on one line, so a direction's masks are the union of its lines' and the
counts are sums: replacing one line is clearing its cells, OR-ing in its new masks, and
adding the difference of its counts.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from gamut_engine.games.connect5_board import Connect5Board
from gamut_engine.games.connect5_lines import KINDS, SIDE_SPAN, line_tables
from gamut_engine.games.connect5_scan import scan_line, shifted, worth

COUNT_KINDS: Final = 2
"""Counts kept per side: the worth of its patterns and its windows of three."""

WORTH, THREES = range(COUNT_KINDS)
"""Offsets of one side's counts."""

CACHE_LIMIT: Final = 1 << 16
"""Line patterns a table keeps before it starts afresh."""

Masks = tuple[int, ...]
"""Both sides' threat masks, direction by direction (``2 * SIDE_SPAN`` of them)."""

Counts = tuple[int, ...]
"""Both sides' pattern counts (``2 * COUNT_KINDS`` of them, side 0's first)."""

LinePatterns = tuple[int, ...]
"""One line's ``2 * KINDS`` masks (side 0's first), then its ``2 * COUNT_KINDS`` counts."""

NO_MASKS: Final = (0,) * (2 * SIDE_SPAN)
"""The masks of the empty board: no threat anywhere."""

NO_COUNTS: Final = (0,) * (2 * COUNT_KINDS)
"""The counts of the empty board."""

_NO_LINE: Final = (0,) * (2 * KINDS + 2 * COUNT_KINDS)


class PatternTables:
    """Every line's patterns met so far on one board size, and the updates they make."""

    def __init__(self, board: Connect5Board) -> None:
        """Tables for ``board``, no line pattern computed yet."""
        self.board = board
        lines = line_tables(board)
        self._directions = tuple(zip(range(4), lines.lines, lines.keep, strict=True))
        self._cache: dict[tuple[int, int, int], LinePatterns] = {}

    def from_stones(self, x: int, o: int) -> tuple[Masks, Counts]:
        """The masks and counts of a position, line by line from scratch."""
        masks, counts = list(NO_MASKS), list(NO_COUNTS)
        for direction, lines, _ in self._directions:
            for line in set(lines):
                found = self._patterns(direction, x, o, line)
                _replace_line(masks, counts, found, _NO_LINE, direction, -1)
        return tuple(masks), tuple(counts)

    def play(
        self, masks: Masks, counts: Counts, x: int, o: int, cell: int, side: int
    ) -> tuple[Masks, Counts]:
        """The masks and counts after a stone of ``side`` on the empty ``cell``."""
        bit = self.board.bits[cell]
        after_x, after_o = (x, o | bit) if side else (x | bit, o)
        m, c = list(masks), list(counts)
        if len(self._cache) > CACHE_LIMIT:
            self._cache.clear()
        for direction, lines, keeps in self._directions:
            line = lines[cell]
            old = self._patterns(direction, x, o, line)
            new = self._patterns(direction, after_x, after_o, line)
            _replace_line(m, c, new, old, direction, keeps[cell])
        return tuple(m), tuple(c)

    def _patterns(self, direction: int, x: int, o: int, line: int) -> LinePatterns:
        """The patterns of ``line`` holding the stones of ``x`` and ``o`` on it."""
        key = (direction, x & line, o & line)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._scan(direction, key[1], key[2], line)
        return found

    def _scan(self, direction: int, x: int, o: int, line: int) -> LinePatterns:
        """One line's masks and counts, computed bit-parallel."""
        step = self.board.steps[direction]
        starts = self.board.window_starts[direction] & line
        a, b, e = shifted(x, step), shifted(o, step), shifted(line & ~(x | o), step)
        masks: list[int] = []
        counts: list[int] = []
        for own, enemy in ((a, b), (b, a)):
            found = scan_line(own, enemy, e, step, starts)
            masks += (found.wins, found.fours, found.open_four_cells, found.threes)
            counts += (worth(found), found.three_windows)
        return (*(mask & line for mask in masks), *counts)


@cache
def pattern_tables(board: Connect5Board) -> PatternTables:
    """The tables of ``board``, made once and shared: line patterns depend on nothing else."""
    return PatternTables(board)


def _replace_line(
    m: list[int], c: list[int], new: LinePatterns, old: LinePatterns, direction: int, keep: int
) -> None:
    """Put ``new`` in place of ``old`` as one line's patterns (``keep``: every other cell)."""
    b = direction * KINDS
    m[b] = m[b] & keep | new[0]
    m[b + 1] = m[b + 1] & keep | new[1]
    m[b + 2] = m[b + 2] & keep | new[2]
    m[b + 3] = m[b + 3] & keep | new[3]
    b += SIDE_SPAN
    m[b] = m[b] & keep | new[4]
    m[b + 1] = m[b + 1] & keep | new[5]
    m[b + 2] = m[b + 2] & keep | new[6]
    m[b + 3] = m[b + 3] & keep | new[7]
    c[0] += new[8] - old[8]
    c[1] += new[9] - old[9]
    c[2] += new[10] - old[10]
    c[3] += new[11] - old[11]
