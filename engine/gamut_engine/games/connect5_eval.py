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
    COUNT_KINDS,
    THREES,
    WORTH,
    LinePosition,
    double_threats,
    position_of,
    side_threats,
    wins_of,
)
from gamut_engine.games.connect5_scan import Threats

WIN_NEXT = 50_000
"""Score of a position whose side to move completes five with its next stone."""
OPEN_FOUR_NEXT = 20_000
"""Score of a side to move that makes an open four while the other has no four to play."""
TEMPO = (6, 5)
"""The side with the initiative counts its patterns 6/5 as much (it plays them first)."""


def evaluate(state: Connect5State) -> int:
    """Heuristic worth of ``state`` for the side to move, well inside ±1,000,000."""
    if state.won:
        return -WIN_NEXT
    side = state.turn
    position = position_of(state)
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
    position = position_of(state)
    return order_by_threats(board, occupied, _threats(position, side), _threats(position, 1 - side))


def _threats(position: LinePosition, side: int) -> Threats:
    """One side's threat cells, combined over the four directions."""
    found = side_threats(position, side)
    forks = double_threats(position, side)
    return Threats(found.wins, found.fours, found.winning, forks, found.threes)


def order_by_threats(
    board: Connect5Board, occupied: int, mine: Threats, theirs: Threats
) -> tuple[list[int], bool]:
    """:func:`ordered_moves` from both sides' threats (the side to move's first)."""
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
