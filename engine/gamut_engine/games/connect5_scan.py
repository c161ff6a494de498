"""Connect Five threat patterns along every line, scanned over the whole board at once.

Everything is computed bit-parallel: for each of the four line directions the stones
are shifted so that bit ``p`` of the k-th shift tells about the k-th cell of the run
of cells starting at ``p``. ANDing shifts then finds every occurrence of a pattern on
the whole board at once, and a bit-sliced adder counts the stones of every run of
five cells (a *window*). The patterns, for one side:

- a **win cell** completes five or more in a row (a window of four stones and a gap);
- an **open four** is four in a row with both ends empty (``_XXXX_``): two win cells;
- a **four** is any other line with a win cell (it must be answered at once);
- an **open three** cell turns three stones into an open four (``_XXX__``, ``_XX_X_``);
- **threes** and **twos** are windows holding three or two stones and no enemy stone.
"""

from __future__ import annotations

from typing import NamedTuple

from gamut_engine.games.connect5_board import Connect5Board

WEIGHTS = (1_500, 900, 40, 8, 1)
"""Worth of one four, open-three cell, three, two and single-stone window."""


class LineThreats(NamedTuple):
    """One side's threats along one line direction: cell masks and window counts."""

    wins: int
    """Empty cells that complete five or more in a row."""
    fours: int
    """Empty cells that make a four (a window of four stones and one empty cell)."""
    open_four_cells: int
    """Empty cells that make an open four ``_XXXX_``."""
    threes: int
    """Empty cells that make a window of three stones and no enemy stone."""
    open_fours: int
    """Open fours already on the board."""
    three_windows: int
    """Windows of five with three stones and no enemy stone."""
    two_windows: int
    """Windows of five with two stones and no enemy stone."""
    one_windows: int
    """Windows of five with one stone and no enemy stone."""


class Threats(NamedTuple):
    """One side's threats over the whole board, as cell masks."""

    wins: int
    """Cells that complete five in a row."""
    fours: int
    """Cells that make a four along some line."""
    winning: int
    """Cells that make an open four or two fours at once: a win unless the enemy can stop
    it with fours of their own."""
    forks: int
    """Cells that make a four or a three along two lines at once."""
    threes: int
    """Cells that make a three (a window of three stones) along some line."""


class Patterns(NamedTuple):
    """One side's pattern counts over the whole board (see the module docstring)."""

    win_cells: int
    """Distinct empty cells that complete five."""
    open_fours: int
    """Open fours ``_XXXX_`` on the board."""
    fours: int
    """Other lines with a cell that completes five, one per such cell."""
    open_threes: int
    """Cells that make an open four, once per line they make it along."""
    threes: int
    """Windows of five with three stones and no enemy stone."""
    twos: int
    """Windows of five with two stones and no enemy stone."""
    ones: int
    """Windows of five with one stone and no enemy stone."""


def shifted(stones: int, step: int) -> tuple[int, int, int, int, int, int]:
    """``stones`` shifted so that bit ``p`` of item ``k`` is the cell ``k`` steps after ``p``."""
    return (
        stones,
        stones >> step,
        stones >> (2 * step),
        stones >> (3 * step),
        stones >> (4 * step),
        stones >> (5 * step),
    )


def _spread(starts: int, step: int, empty: int) -> int:
    """The empty cells of every window starting at a bit of ``starts``."""
    return (
        starts
        | (starts << step)
        | (starts << (2 * step))
        | (starts << (3 * step))
        | (starts << (4 * step))
    ) & empty


def scan_line(
    a: tuple[int, ...],
    b: tuple[int, ...],
    e: tuple[int, ...],
    step: int,
    starts: int,
    detail: bool = True,
) -> LineThreats:
    """Threats of the stones ``a`` against ``b`` along ``step`` (shifts of own, enemy, empty).

    Without ``detail`` the ``fours`` and ``threes`` cell masks are left at 0.
    """
    a0, a1, a2, a3, a4, _ = a
    e0, e1, e2, e3, e4, e5 = e
    free = starts & ~(b[0] | b[1] | b[2] | b[3] | b[4])
    # Bit-sliced sum of the five cells of each window: count = low + 2 * mid + 4 * high.
    s = a0 ^ a1
    carry1 = a0 & a1
    t = s ^ a2
    carry1 |= s & a2
    s = t ^ a3
    carry2 = t & a3
    low = s ^ a4
    carry2 |= s & a4
    mid = carry1 ^ carry2
    high = carry1 & carry2
    under_four = free & ~high
    four = free & high & ~mid & ~low
    three = under_four & mid & low
    two = under_four & mid & ~low
    ends = e0 & e5
    pair12 = a1 & a2
    pair34 = a3 & a4
    # Each pattern marks its start; a cell is marked by at most one of them.
    open_four_cells = (
        ((ends & e1 & a2 & pair34) << step)
        | ((ends & a1 & e2 & pair34) << (2 * step))
        | ((ends & pair12 & e3 & a4) << (3 * step))
        | ((ends & pair12 & a3 & e4) << (4 * step))
    )
    return LineThreats(
        wins=_spread(four, step, e0),
        fours=_spread(three, step, e0) if detail else 0,
        open_four_cells=open_four_cells,
        threes=_spread(two, step, e0) if detail else 0,
        open_fours=(ends & pair12 & pair34).bit_count(),
        three_windows=three.bit_count(),
        two_windows=two.bit_count(),
        one_windows=(under_four & low & ~mid).bit_count(),
    )


def line_threats(
    board: Connect5Board, own: int, enemy: int, detail: bool = True
) -> tuple[list[LineThreats], list[LineThreats]]:
    """The threats of ``own`` and of ``enemy`` along each of the four directions.

    ``detail=False`` skips the ``fours`` and ``threes`` cell masks, which only move
    ordering needs.
    """
    empty = board.mask & ~(own | enemy)
    mine: list[LineThreats] = []
    theirs: list[LineThreats] = []
    for step, starts in zip(board.steps, board.window_starts, strict=True):
        a = shifted(own, step)
        b = shifted(enemy, step)
        e = shifted(empty, step)
        mine.append(scan_line(a, b, e, step, starts, detail))
        theirs.append(scan_line(b, a, e, step, starts, detail))
    return mine, theirs


def side_threats(board: Connect5Board, own: int, enemy: int) -> Threats:
    """The threats of ``own`` alone against ``enemy``: half the work of :func:`line_threats`."""
    empty = board.mask & ~(own | enemy)
    lines = [
        scan_line(shifted(own, step), shifted(enemy, step), shifted(empty, step), step, starts)
        for step, starts in zip(board.steps, board.window_starts, strict=True)
    ]
    return threats(lines)


def patterns(lines: list[LineThreats]) -> Patterns:
    """Pattern counts of one side from its threats along the four directions."""
    win_cells = 0
    open_fours = fours = open_threes = threes = twos = ones = 0
    for line in lines:
        win_cells |= line.wins
        open_fours += line.open_fours
        fours += line.wins.bit_count() - 2 * line.open_fours
        open_threes += line.open_four_cells.bit_count()
        threes += line.three_windows
        twos += line.two_windows
        ones += line.one_windows
    return Patterns(win_cells.bit_count(), open_fours, fours, open_threes, threes, twos, ones)


def threats(lines: list[LineThreats]) -> Threats:
    """Cell masks of one side's threats, combining the four directions."""
    wins = fours = open_four_cells = 0
    double_four = 0
    forcing = double_forcing = 0
    threes = 0
    for line in lines:
        wins |= line.wins
        double_four |= fours & line.fours
        fours |= line.fours
        open_four_cells |= line.open_four_cells
        grows = line.fours | line.threes
        double_forcing |= forcing & grows
        forcing |= grows
        threes |= line.threes
    return Threats(wins, fours, open_four_cells | double_four, double_forcing, threes)


def worth(line: LineThreats) -> int:
    """The weighted worth of one side's patterns along one direction or line.

    Fives and wins are scored apart. A four counts once per cell that completes it, so an
    open four counts twice.
    """
    four, open_three, three, two, one = WEIGHTS
    return (
        four * line.wins.bit_count()
        + open_three * line.open_four_cells.bit_count()
        + three * line.three_windows
        + two * line.two_windows
        + one * line.one_windows
    )
