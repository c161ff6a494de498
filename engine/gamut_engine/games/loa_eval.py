"""Lines of Action evaluation and move ordering.

The evaluation follows the features strong programs (MIA, YL) weigh, each for both
sides and scored as the difference: concentration (how far the pieces stand from
their centre of mass, beyond the least possible for their number), centralisation,
2×2 quads (solid blocks, and the Euler number that counts groups minus holes),
mobility, the number of separate groups, and material. Everything works on the
board's bitboards; the only loops run over a side's pieces.

Every term but mobility depends on one side's pieces alone, so each side's sum of them
is remembered by its pieces' mask (a move changes one side's pieces, and a search
evaluates many positions where the other side's stand as before); mobility is counted
line by line with each line's answer remembered (:mod:`gamut_engine.games.loa_mobility`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gamut_engine.games.loa_board import LoaBoard, LoaMove, bits
from gamut_engine.games.loa_mobility import line_mobility

CONCENTRATION = 24
"""Penalty per cell of spread beyond the tightest packing of the same number of pieces."""
CENTRALISATION = 10
"""Bonus per piece per ring away from the edge."""
SOLID_QUAD = 18
"""Bonus per 2×2 window holding three or four of a side's pieces."""
EULER = 15
"""Penalty per unit of Euler number (groups minus holes) above one."""
MOBILITY = 8
"""Bonus per legal move; a capture counts twice, a move onto the edge half."""
GROUPS = 15
"""Penalty per group beyond the first."""
MATERIAL = 8
"""Bonus per piece: more pieces give more moves and more captures to threaten."""
TEMPO = 20
"""Bonus for being the side to move."""

MEMORY_SIZE = 1 << 17
"""Sides' static scores remembered per board size before the memory is cleared."""

ORDER_CAPTURE = 1_000
"""Ordering weight of a capture."""
ORDER_GROUP = 200
"""Ordering weight per group a move removes from the mover's count."""
ORDER_PULL = 30
"""Ordering weight per cell a move brings the piece nearer its side's centre of mass."""
ORDER_WIN = 100_000
"""Ordering weight of a move that looks likely to join every piece."""


@dataclass(frozen=True, slots=True)
class EvalTables:
    """Per-square numbers for one board size, indexed by square index."""

    rank: tuple[int, ...]
    """0-based rank of each square."""
    file: tuple[int, ...]
    """0-based file of each square."""
    ring: tuple[int, ...]
    """Rings from the edge (0 on the edge) of each square."""
    tightest: tuple[int, ...]
    """Least possible sum of distances to a centre for each number of pieces."""
    edge: int
    """Mask of the squares on the edge of the board."""


@cache
def tables_for(board: LoaBoard) -> EvalTables:
    """The evaluation tables of ``board``'s size."""
    length = board.size * board.stride
    rank, file, ring = [0] * length, [0] * length, [0] * length
    last = board.size - 1
    for sq in board.squares:
        rank[sq], file[sq] = board.coordinates(sq)
        ring[sq] = min(rank[sq], file[sq], last - rank[sq], last - file[sq])
    tightest = [0]
    for count in range(1, board.size * board.size + 1):
        distance = 0
        while (2 * distance + 1) ** 2 < count:
            distance += 1
        tightest.append(tightest[-1] + distance)
    edge = sum(1 << sq for sq in board.squares if ring[sq] == 0)
    return EvalTables(tuple(rank), tuple(file), tuple(ring), tuple(tightest), edge)


def evaluate(board: LoaBoard, black: int, white: int, side: int) -> int:
    """Worth of the position for ``side`` (to move): its terms minus the opponent's."""
    tables = tables_for(board)
    memory = _static_memory(board)
    black_static = memory.get(black)
    if black_static is None:
        black_static = _remember(memory, black, static_score(board, tables, black))
    white_static = memory.get(white)
    if white_static is None:
        white_static = _remember(memory, white, static_score(board, tables, white))
    black_moves, white_moves = line_mobility(board, tables.edge).both(black, white)
    black_score = black_static + MOBILITY * black_moves // 2 if black else 0
    white_score = white_static + MOBILITY * white_moves // 2 if white else 0
    score = white_score - black_score if side else black_score - white_score
    return score + TEMPO


def side_score(board: LoaBoard, tables: EvalTables, own: int, enemy: int) -> int:
    """Every term for the side owning ``own``, summed, its mobility counted piece by piece.

    :func:`evaluate` computes the same in parts, remembered; this is its reference."""
    if not own:
        return 0
    return (
        static_score(board, tables, own) + MOBILITY * mobility(board, tables.edge, own, enemy) // 2
    )


def static_score(board: LoaBoard, tables: EvalTables, own: int) -> int:
    """Every term that depends on ``own``'s pieces alone, summed: all but mobility."""
    squares = bits(own)
    count = len(squares)
    if not count:
        return 0
    return (
        -CONCENTRATION * spread(tables, squares)
        + CENTRALISATION * sum(tables.ring[sq] for sq in squares)
        + quad_score(board, own)
        - GROUPS * (board.group_count(own) - 1)
        + MATERIAL * count
    )


@cache
def _static_memory(board: LoaBoard) -> dict[int, int]:
    """Static scores by pieces' mask, for ``board``'s size."""
    return {}


def _remember(memory: dict[int, int], pieces: int, value: int) -> int:
    """Store ``value`` for ``pieces`` in ``memory``, clearing it first when full."""
    if len(memory) >= MEMORY_SIZE:
        memory.clear()
    memory[pieces] = value
    return value


def centre_of_mass(tables: EvalTables, squares: list[int]) -> tuple[int, int]:
    """The rounded mean rank and file of ``squares`` (not empty)."""
    count = len(squares)
    rank_sum = sum(tables.rank[sq] for sq in squares)
    file_sum = sum(tables.file[sq] for sq in squares)
    return (2 * rank_sum + count) // (2 * count), (2 * file_sum + count) // (2 * count)


def spread(tables: EvalTables, squares: list[int]) -> int:
    """Sum of king-move distances to the centre of mass, beyond the tightest packing."""
    centre_rank, centre_file = centre_of_mass(tables, squares)
    rank, file = tables.rank, tables.file
    total = 0
    for sq in squares:
        total += max(abs(rank[sq] - centre_rank), abs(file[sq] - centre_file))
    return total - tables.tightest[len(squares)]


def quad_score(board: LoaBoard, pieces: int) -> int:
    """Solid-quad bonus minus the penalty for an Euler number above one."""
    solid, euler_times_four = quads(board, pieces)
    return SOLID_QUAD * solid - EULER * max(0, euler_times_four - 4) // 4


def quads(board: LoaBoard, pieces: int) -> tuple[int, int]:
    """``(solid, 4E)`` from every 2×2 window of ``pieces``.

    ``solid`` counts windows holding three or four pieces; ``E`` is the Euler number
    for 8-connected pieces by Gray's formula, (Q1 - Q3 - 2·Qdiagonal) / 4: the number
    of groups minus the number of holes. Thanks to the layout's spare bit per rank,
    windows hanging over any edge are counted too, as the formula needs.
    """
    stride = board.stride
    a = pieces << (stride + 1)
    b, c, d = a >> 1, a >> stride, a >> (stride + 1)
    odd_low, pair_low = a ^ b, a & b
    odd_high, pair_high = c ^ d, c & d
    odd = odd_low ^ odd_high
    any_pair = pair_low | pair_high
    singles = (odd & ~any_pair).bit_count()
    triples = (odd & any_pair).bit_count()
    diagonals = ((a & d & ~b & ~c) | (b & c & ~a & ~d)).bit_count()
    full = (pair_low & pair_high).bit_count()
    return triples + full, singles - triples - 2 * diagonals


def mobility(board: LoaBoard, edge: int, own: int, enemy: int) -> int:
    """Legal moves of the side owning ``own``, in half moves: a capture 4, onto ``edge`` 1."""
    occupied = own | enemy
    total = 0
    pieces = own
    lines = board.lines
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        for mask, forward, backward in lines[low.bit_length() - 1]:
            count = (occupied & mask).bit_count()
            for step in (forward[count], backward[count]):
                if step is None or step.between & enemy or step.target_bit & own:
                    continue
                target = step.target_bit
                total += 4 if target & enemy else 1 if target & edge else 2
    return total


def order_moves(board: LoaBoard, own: int, enemy: int, moves: list[LoaMove]) -> list[LoaMove]:
    """``moves`` best first: likely wins, captures, then moves that join groups and gather."""
    tables = tables_for(board)
    squares = bits(own)
    distance = distances(board, *centre_of_mass(tables, squares))
    group_by_bit: dict[int, int] = {}
    groups = 0
    pieces = own
    while pieces:
        group = board.group_of(pieces & -pieces, pieces)
        pieces ^= group
        groups += 1
        member = group
        while member:
            low = member & -member
            group_by_bit[low] = group
            member ^= low
    neighbours = board.neighbours
    scores = []
    for origin, target, capture in moves:
        if origin < 0:
            scores.append(0)
            continue
        origin_bit = 1 << origin
        # The piece leaves its group (a new group unless it was alone) and joins every
        # group it lands beside.
        after = groups if group_by_bit[origin_bit] == origin_bit else groups + 1
        touching = neighbours[target] & own & ~origin_bit
        while touching:
            group = group_by_bit[touching & -touching]
            touching &= ~group
            after -= 1
        scores.append(
            (ORDER_WIN if after == 1 else 0)
            + (ORDER_CAPTURE if capture else 0)
            + ORDER_GROUP * (groups - after)
            + ORDER_PULL * (distance[origin] - distance[target])
        )
    order = sorted(range(len(moves)), key=scores.__getitem__, reverse=True)
    return [moves[i] for i in order]


@cache
def distances(board: LoaBoard, rank: int, file: int) -> tuple[int, ...]:
    """King-move distance of every square index of ``board`` to ``(rank, file)``."""
    tables = tables_for(board)
    return tuple(
        max(abs(tables.rank[sq] - rank), abs(tables.file[sq] - file))
        for sq in range(len(tables.rank))
    )
