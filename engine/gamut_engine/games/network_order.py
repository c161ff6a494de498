"""Network's move ordering for the search, and which moves it may leave out.

Moves are sorted by what their target square gains (sight of own chips, cuts of enemy
connections, a missing goal, an opponent's network square taken) less, for a step,
what leaving the origin gives up.

Moves are left out only where that is safe or quiet: with a win at hand only the
winning moves are searched (found exactly; of the steps, only the first found, since
a win at once is worth the same whichever it is); a side whose opponent threatens a network
with its next move searches only the moves that may stop every threat (the first
:data:`DEFENCE_CHECKS` of them checked on the board), or all of them if none does; a
quiet position (no win at hand, no network threatened) keeps the best
:data:`ADD_BREADTH` adds or :data:`STEP_BREADTH` steps. So neither a winning move nor the
only defence to an immediate network is ever left out.

The ordering cannot read the search's clock, so its work is bounded instead: checking
a candidate defence on the board costs a scan for the opponent's winning steps (a
fraction of a millisecond to a few), and at most :data:`DEFENCE_CHECKS` are checked.
Candidates beyond those are kept unchecked: the search then meets them as moves, where
it reads its clock between one and the next.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from gamut_engine.games.network_board import (
    ALL_SQUARES,
    BETWEEN,
    CHIPS,
    DOWN_RAYS,
    NEIGHBOURS,
    SQUARES,
    UP_RAYS,
    gains_link,
    squares_of,
)
from gamut_engine.games.network_paths import find_network
from gamut_engine.games.network_rules import NetworkState, Variant
from gamut_engine.games.network_threats import (
    add_threats,
    gives_network,
    sight_counts,
    winning_steps,
)

STEP_BREADTH = 20
"""Step moves searched in a quiet position: the best ones by the ordering (20 lets the
search finish five plies in the bench's step positions within 5 s)."""

ADD_BREADTH = 20
"""Add moves searched in a quiet position (0: all of them): in matches at a second a move,
narrowing to 20 scored 45 of 80 games against searching them all."""

DEFENCE_CHECKS = 8
"""Candidate defences checked on the board per position, at most; the rest are kept
unchecked (a 2015 position had 45 candidates, 24 ms of scans without a look at the
clock)."""

BLOCK = 12
"""Ordering bonus for a target where the opponent's next chip would complete a network
(two such squares at most are looked for)."""


def order_moves(variant: Variant, state: NetworkState, moves: list[int]) -> list[int]:
    """``moves`` best first: only the winning ones if there are any (one, for steps), else only the
    defences to a threatened network if there are any, else the best few of a quiet
    position."""
    side = state.ply & 1
    own, other = state.boards()
    if own.bit_count() < CHIPS:
        return _order_adds(variant, side, own, other, moves)
    # One winning step is enough: every win at once has the same value, and the scan
    # stops at the first it finds.
    wins = winning_steps(variant, side, own, other, 1)
    if wins:
        return wins
    threats = winning_steps(variant, side ^ 1, other, own, 64)
    if not threats:
        return _order_steps(variant, side, own, other, 0, moves)[:STEP_BREADTH]
    moves = _step_defences(variant, side, own, other, threats, moves) or moves
    blocks = add_threats(variant, side ^ 1, other, own, 2)
    return _order_steps(variant, side, own, other, blocks, moves)


def _step_defences(
    variant: Variant, side: int, own: int, other: int, threats: list[int], moves: list[int]
) -> list[int]:
    """The steps after which the opponent, threatening the winning ``threats``, has none.

    Lifting a chip never blocks anything, so a defence lands on a square that stops
    every threat: the threat's target or a line its network needs. Only those steps are
    tried on the board.
    """
    opponent = side ^ 1
    blocking = ALL_SQUARES
    for threat in threats:
        blocking &= _blocking_squares(variant, opponent, other, own, threat)
        if not blocking:
            return []
    candidates = []
    for move in moves:
        origin, target = (move >> 6) - 1, move & 63
        if blocking >> target & 1 and not gives_network(variant, side, origin, target, own, other):
            candidates.append(move)

    def stops_every_threat(move: int) -> bool:
        after = own ^ 1 << ((move >> 6) - 1) | 1 << (move & 63)
        return not winning_steps(variant, opponent, other, after, 1)

    return _checked(candidates, stops_every_threat)


def _checked(candidates: list[int], defends: Callable[[int], bool]) -> list[int]:
    """The ``candidates`` that ``defends`` accepts, of the first :data:`DEFENCE_CHECKS`,
    and every later one unchecked."""
    kept = [move for move in candidates[:DEFENCE_CHECKS] if defends(move)]
    return kept + candidates[DEFENCE_CHECKS:]


def _blocking_squares(variant: Variant, side: int, own: int, other: int, move: int) -> int:
    """The squares a chip must take to stop the winning step ``move`` of ``side``: its
    target and the lines between the chips of the network it completes."""
    origin, target = (move >> 6) - 1, move & 63
    after = own ^ 1 << origin | 1 << target
    path = find_network(after, after | other, *variant.goals[side])
    squares = 1 << target
    if path is not None:
        for first, second in pairwise(path):
            squares |= BETWEEN[first][second]
    return squares


def _order_adds(variant: Variant, side: int, own: int, other: int, moves: list[int]) -> list[int]:
    """Add moves: the wins, or the defences to a threatened network, or all; best first."""
    wins = add_threats(variant, side, own, other, 2)
    if wins:
        return [move for move in moves if wins >> move & 1]
    blocks = add_threats(variant, side ^ 1, other, own, 2)
    if other.bit_count() < CHIPS:
        threatened = bool(blocks)
    else:
        threatened = bool(winning_steps(variant, side ^ 1, other, own, 1))
    if threatened:
        moves = _defences(variant, side, own, other, blocks, moves) or moves
    gain = _gains(variant, side, own, other, blocks)
    ordered = sorted(moves, key=lambda move: gain[move & 63], reverse=True)
    return ordered if threatened or not ADD_BREADTH else ordered[:ADD_BREADTH]


def _defences(
    variant: Variant, side: int, own: int, other: int, blocks: int, moves: list[int]
) -> list[int]:
    """The add moves after which the opponent cannot complete a network at once.

    With the opponent still adding, a defence must take a square where its chip would
    complete the network (``blocks``) or cut a line that network needs; only those are
    tried. An opponent that steps next may use any square, so every move is tried.
    """
    if other.bit_count() < CHIPS:
        occupied = own | other
        near = blocks | _enemy_lines(other, occupied)
        for square in squares_of(blocks):
            near |= _sightlines(square, other, occupied)
        return [
            move
            for move in moves
            if near >> move & 1 and not add_threats(variant, side ^ 1, other, own | 1 << move, 2)
        ]
    return _checked(
        moves, lambda move: not winning_steps(variant, side ^ 1, other, own | 1 << move, 1)
    )


def _sightlines(square: int, chips: int, occupied: int) -> int:
    """The empty squares between ``square`` and the ``chips`` it sees."""
    lines = 0
    for _, ray in UP_RAYS[square]:
        seen = ray & occupied
        first = seen & -seen
        if first & chips:
            lines |= ray & (first - 1)
    for _, ray in DOWN_RAYS[square]:
        seen = ray & occupied
        if seen and chips >> (seen.bit_length() - 1) & 1:
            lines |= ray & ~((1 << seen.bit_length()) - 1)
    return lines


def _gains(variant: Variant, side: int, own: int, other: int, blocks: int) -> list[int]:
    """Per empty square, what a chip of ``side`` placed there gains."""
    occupied = own | other
    once, twice = sight_counts(own, occupied)
    cuts = _enemy_lines(other, occupied)
    wanted = 0
    for goal in variant.goals[side]:
        if not own & goal:
            wanted |= goal
    gain = [0] * SQUARES
    for target in squares_of(~occupied & ALL_SQUARES):
        bit = 1 << target
        gain[target] = (
            (3 if bit & once else 0)
            + (3 if bit & twice else 0)
            + (4 if bit & cuts else 0)
            + (2 if bit & wanted else 0)
            + (BLOCK if bit & blocks else 0)
            - (1 if NEIGHBOURS[target] & own else 0)
        )
    return gain


def _order_steps(
    variant: Variant, side: int, own: int, other: int, blocks: int, moves: list[int]
) -> list[int]:
    """Step moves sorted by their target's gain less their origin's loss."""
    occupied = own | other
    gain = _gains(variant, side, own, other, blocks)
    loss = [0] * SQUARES
    for origin in squares_of(own):
        loss[origin] = _loss(origin, own, other, occupied)
    return sorted(moves, key=lambda move: gain[move & 63] - loss[(move >> 6) - 1], reverse=True)


def _loss(origin: int, own: int, other: int, occupied: int) -> int:
    """What moving the chip on ``origin`` away gives up: its connections and its blocks."""
    lost = 0
    for _, ray in UP_RAYS[origin]:
        seen = ray & occupied
        if seen & -seen & own:
            lost += 3
    for _, ray in DOWN_RAYS[origin]:
        seen = ray & occupied
        if seen and own >> (seen.bit_length() - 1) & 1:
            lost += 3
    if gains_link(origin, other, occupied ^ 1 << origin):
        lost += 6
    return lost


def _enemy_lines(other: int, occupied: int) -> int:
    """Empty squares between two enemy chips that see each other: where a chip cuts them."""
    cuts = 0
    for index in squares_of(other):
        for _, ray in UP_RAYS[index]:
            seen = ray & occupied
            if seen:
                first = seen & -seen
                if first & other:
                    cuts |= ray & (first - 1)
    return cuts
