"""Connect Five evaluation and move ordering from threat patterns along every line.

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

from gamut_engine.games.connect5_board import Connect5Board, Connect5State

WIN_NEXT = 50_000
"""Score of a position whose side to move completes five with its next stone."""
OPEN_FOUR_NEXT = 20_000
"""Score of a side to move that makes an open four while the other has no four to play."""
WEIGHTS = (1_500, 900, 40, 8, 1)
"""Worth of one four, open-three cell, three, two and single-stone window."""
TEMPO = (6, 5)
"""The side with the initiative counts its patterns 6/5 as much (it plays them first)."""


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


def evaluate(board: Connect5Board, state: Connect5State) -> int:
    """Heuristic worth of ``state`` for the side to move, well inside ±1,000,000."""
    if state.won:
        return -WIN_NEXT
    own, enemy = (state.o, state.x) if state.turn else (state.x, state.o)
    mine, theirs = line_threats(board, own, enemy, detail=False)
    me, them = patterns(mine), patterns(theirs)
    if me.win_cells:
        return WIN_NEXT
    if them.win_cells >= 2:
        return -WIN_NEXT
    if not them.win_cells and not them.threes and _can_make_winning_four(board, own, enemy):
        # They cannot even threaten five, so our open (or double) four wins outright.
        return OPEN_FOUR_NEXT
    first, second = _worth(me), _worth(them)
    if them.win_cells:
        # Blocking their four costs us the move: they keep the initiative.
        return (first * TEMPO[1] - second * TEMPO[0]) // TEMPO[1]
    return (first * TEMPO[0] - second * TEMPO[1]) // TEMPO[1]


def _can_make_winning_four(board: Connect5Board, own: int, enemy: int) -> bool:
    """Whether ``own`` has a cell that makes an open four or two fours at once."""
    return bool(threats(line_threats(board, own, enemy)[0]).winning)


def _worth(counts: Patterns) -> int:
    """The weighted sum of one side's pattern counts (fives and wins are handled apart)."""
    four, open_three, three, two, one = WEIGHTS
    return (
        four * (counts.fours + 2 * counts.open_fours)
        + open_three * counts.open_threes
        + three * counts.threes
        + two * counts.twos
        + one * counts.ones
    )


def order_moves(board: Connect5Board, state: Connect5State) -> list[int]:
    """Moves worth searching in ``state`` (a running game), most promising first.

    A move that wins at once is all there is to search; failing that, a threat of five
    by the enemy leaves only its blocks. Otherwise: own open fours and double fours,
    blocks of the enemy's, own forks, blocks of enemy forks, own fours, then threes,
    then every other empty cell within two cells (a king's move twice) of a stone.
    """
    return ordered_moves(board, state)[0]


def ordered_moves(board: Connect5Board, state: Connect5State) -> tuple[list[int], bool]:
    """:func:`order_moves`, and whether the enemy threatens an open or double four.

    The threat counts only when neither side has a five to make and the side to move
    has no open or double four of its own, which would come first.
    """
    own, enemy = (state.o, state.x) if state.turn else (state.x, state.o)
    occupied = own | enemy
    if not occupied:
        return [board.centre], False
    mine_lines, their_lines = line_threats(board, own, enemy)
    mine, theirs = threats(mine_lines), threats(their_lines)
    if mine.wins:
        return board.cells_of(mine.wins), False
    if theirs.wins:
        return board.cells_of(theirs.wins), False
    near = board.near(occupied) & ~occupied
    tiers = (
        mine.winning,
        theirs.winning,
        mine.forks & mine.fours,
        theirs.forks & theirs.fours,
        mine.forks,
        theirs.forks,
        mine.fours,
        mine.threes | theirs.fours,
        theirs.threes,
        near,
    )
    moves: list[int] = []
    taken = 0
    for tier in tiers:
        cells = tier & near & ~taken
        if cells:
            moves.extend(board.cells_of(cells))
            taken |= cells
    return moves, bool(theirs.winning) and not mine.winning
