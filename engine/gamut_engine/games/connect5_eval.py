"""Connect Five evaluation and move ordering, read from the patterns a position carries.

Every :class:`~gamut_engine.games.connect5_board.Connect5State` carries, updated stone
by stone (:mod:`connect5_patterns`), each side's threat cells along every direction and
the worth of its patterns (fours, open-three cells, and windows of five holding three,
two and one stones and no enemy stone, weighted as :data:`connect5_scan.WEIGHTS` says),
so neither the evaluation nor the move order scans the board.
"""

from __future__ import annotations

from gamut_engine.games.connect5_board import Connect5Board, Connect5State
from gamut_engine.games.connect5_lines import (
    LinePosition,
    double_threats,
    side_threats,
    wins_of,
)
from gamut_engine.games.connect5_patterns import COUNT_KINDS, THREES, WORTH

WIN_NEXT = 50_000
"""Score of a position whose side to move completes five with its next stone."""
OPEN_FOUR_NEXT = 20_000
"""Score of a side to move that makes an open four while the other has no four to play."""
TEMPO = (6, 5)
"""The side with the initiative counts its patterns 6/5 as much (it plays them first)."""


def lines_of(state: Connect5State) -> LinePosition:
    """The position's stones and threat masks, as the threat search reads them."""
    return LinePosition(state.x, state.o, state.masks)


def evaluate(state: Connect5State) -> int:
    """Heuristic worth of ``state`` for the side to move, well inside ±1,000,000."""
    if state.won:
        return -WIN_NEXT
    side = state.turn
    position = lines_of(state)
    if wins_of(position, side):
        return WIN_NEXT
    their_wins = wins_of(position, 1 - side).bit_count()
    if their_wins >= 2:
        return -WIN_NEXT
    counts = state.counts
    mine, theirs = side * COUNT_KINDS, (1 - side) * COUNT_KINDS
    if not their_wins and not counts[theirs + THREES] and side_threats(position, side).winning:
        # They cannot even threaten five, so our open (or double) four wins outright.
        return OPEN_FOUR_NEXT
    first, second = counts[mine + WORTH], counts[theirs + WORTH]
    if their_wins:
        # Blocking their four costs us the move: they keep the initiative.
        return (first * TEMPO[1] - second * TEMPO[0]) // TEMPO[1]
    return (first * TEMPO[0] - second * TEMPO[1]) // TEMPO[1]


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
    occupied = state.x | state.o
    if not occupied:
        return [board.centre], False
    side = state.turn
    position = lines_of(state)
    mine, theirs = side_threats(position, side), side_threats(position, 1 - side)
    if mine.wins:
        return board.cells_of(mine.wins), False
    if theirs.wins:
        return board.cells_of(theirs.wins), False
    my_forks, their_forks = double_threats(position, side), double_threats(position, 1 - side)
    near = board.near(occupied) & ~occupied
    tiers = (
        mine.winning,
        theirs.winning,
        my_forks & mine.fours,
        their_forks & theirs.fours,
        my_forks,
        their_forks,
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
