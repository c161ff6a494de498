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
line content (bit-parallel, as the whole-board scan does) and kept in the table the
threat search uses too (:class:`~gamut_engine.games.connect5_lines.LineTables`), shared by
every game of the board size. Lines of one direction share no cell, and every window of
five lies on one line, so a direction's masks are the union of its lines' and the
counts are sums: replacing one line is clearing its cells, OR-ing in its new masks, and
adding the difference of its counts.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from gamut_engine.games.connect5_board import Connect5Board
from gamut_engine.games.connect5_lines import (
    COUNT_KINDS,
    KINDS,
    LINE_SPAN,
    SIDE_SPAN,
    line_tables,
    replace_masks,
)

Masks = tuple[int, ...]
"""Both sides' threat masks, direction by direction (``2 * SIDE_SPAN`` of them)."""

Counts = tuple[int, ...]
"""Both sides' pattern counts (``2 * COUNT_KINDS`` of them, side 0's first)."""

NO_MASKS: Final = (0,) * (2 * SIDE_SPAN)
"""The masks of the empty board: no threat anywhere."""

NO_COUNTS: Final = (0,) * (2 * COUNT_KINDS)
"""The counts of the empty board."""

_NO_LINE: Final = (0,) * LINE_SPAN
_COUNTS_AT: Final = 2 * KINDS
"""Where a line's counts start among its patterns."""


class PatternTables:
    """The updates a stone makes to the patterns a position carries, on one board size."""

    def __init__(self, board: Connect5Board) -> None:
        """Updates for ``board``, over the line patterns its threat search uses too."""
        self.lines = line_tables(board)

    def from_stones(self, x: int, o: int) -> tuple[Masks, Counts]:
        """The masks and counts of a position, line by line from scratch."""
        masks, counts = list(NO_MASKS), list(NO_COUNTS)
        for direction, lines, _ in self.lines.directions:
            for line in set(lines):
                found = self.lines.patterns(direction, x, o, line)
                replace_masks(masks, found, direction, -1)
                _add_counts(counts, found, _NO_LINE)
        return tuple(masks), tuple(counts)

    def play(
        self, masks: Masks, counts: Counts, x: int, o: int, cell: int, side: int
    ) -> tuple[Masks, Counts]:
        """The masks and counts after a stone of ``side`` on the empty ``cell``."""
        bit = self.lines.board.bits[cell]
        after_x, after_o = (x, o | bit) if side else (x | bit, o)
        m, c = list(masks), list(counts)
        patterns = self.lines.patterns
        for direction, lines, keeps in self.lines.directions:
            line = lines[cell]
            new = patterns(direction, after_x, after_o, line)
            replace_masks(m, new, direction, keeps[cell])
            _add_counts(c, new, patterns(direction, x, o, line))
        return tuple(m), tuple(c)


@cache
def pattern_tables(board: Connect5Board) -> PatternTables:
    """The tables of ``board``, made once and shared: line patterns depend on nothing else."""
    return PatternTables(board)


def _add_counts(counts: list[int], new: tuple[int, ...], old: tuple[int, ...]) -> None:
    """Count one line's ``new`` patterns in place of its ``old`` ones."""
    at = _COUNTS_AT
    counts[0] += new[at] - old[at]
    counts[1] += new[at + 1] - old[at + 1]
    counts[2] += new[at + 2] - old[at + 2]
    counts[3] += new[at + 3] - old[at + 3]
