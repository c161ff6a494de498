"""Network's evaluation function for the generic alpha-beta search.

The evaluation reads every chip's four forward lines once (the backward lines follow
from who saw whom) and scores, for each player: connections between its chips (pairs
that see each other), open lines (room for future connections), lines the opponent
blocks, a chip in each goal, and how many chips hang together with a goal through
connections, with a bonus once a chain of connections joins both goals. It also looks
one chip ahead for networks (see :mod:`gamut_engine.games.network_threats`). The move
ordering is in :mod:`gamut_engine.games.network_order`.
"""

from __future__ import annotations

from gamut_engine.games.network_board import CHIPS, DOWN_RAYS, SQUARES, UP_RAYS
from gamut_engine.games.network_rules import NetworkState, Variant
from gamut_engine.games.network_threats import (
    CACHE_SIZE,
    add_threats,
    step_threat,
    threat_squares,
)

CONNECTION = 12
"""Per pair of own chips that see each other (not both in the goals)."""
OPEN_LINE = 1
"""Per line from an own chip that runs to the edge with no chip on it."""
BLOCKED = 4
"""Per own pair whose line an enemy chip cuts."""
GOAL = 30
"""Per goal area holding at least one own chip."""
CROWDED_GOAL = 12
"""Per own chip in a goal area beyond its first: only one can end a network."""
REACH = 8
"""Per own chip outside the goals that connections tie to a goal chip."""
CHAIN = 40
"""When a chain of connections joins a chip in one goal to a chip in the other."""
TEMPO = 6
"""For having the move."""
WIN_NEXT = 50_000
"""For a side to move that can complete a network with its next add."""
STEP_NEXT = 20_000
"""For a side to move with a square where one more chip completes a network, in the steps."""
THREAT = 400
"""Per square (counting two at most) where the opponent's next chip completes a network."""

_cache: dict[tuple[str, int, int, int], int] = {}

_HAS_BACKWARD_LINE: tuple[int, ...] = tuple(
    sum(1 << index for index in range(SQUARES) if any(d == back for d, _ in DOWN_RAYS[index]))
    for back in range(4, 8)
)
"""Per forward direction, the squares that have a line in the opposite direction."""


def evaluate(variant: Variant, state: NetworkState) -> int:
    """The position's worth for the side to move: its features minus the opponent's.

    It also looks one chip ahead: a side to move that can complete a network with its
    next add scores :data:`WIN_NEXT` (:data:`STEP_NEXT` with its next step, which is
    likely but not certain), and each square (up to two) where the opponent's next
    chip would complete one costs :data:`THREAT`. Values are remembered by board.
    """
    key = (variant.rules, state.chips0, state.chips1, state.ply & 1)
    value = _cache.get(key)
    if value is None:
        if len(_cache) >= CACHE_SIZE:
            _cache.clear()
        value = _cache[key] = _evaluate(variant, state)
    return value


def _evaluate(variant: Variant, state: NetworkState) -> int:
    side = state.ply & 1
    own, other = state.boards()
    if own.bit_count() < CHIPS:
        if add_threats(variant, side, own, other, 2):
            return WIN_NEXT
    elif step_threat(variant, side, own, other):
        return STEP_NEXT
    score0, score1 = _scores(variant, state.chips0, state.chips1)
    score = (score1 - score0 if side else score0 - score1) + TEMPO
    return score - THREAT * _threats(variant, side ^ 1, other, own)


def _threats(variant: Variant, side: int, own: int, other: int) -> int:
    """Squares (two at most) where the next chip of ``side``, added or stepped, completes a
    network."""
    if own.bit_count() < CHIPS:
        return add_threats(variant, side, own, other, 2).bit_count()
    return threat_squares(variant, side, own, other, variant.allowed[side], 2).bit_count()


def _scores(variant: Variant, chips0: int, chips1: int) -> tuple[int, int]:
    """Both players' feature scores, from one pass over every chip's forward lines."""
    occupied = chips0 | chips1
    hit = [0, 0, 0, 0]
    pairs0, open0, blocked0 = _scan(chips0, occupied, variant.goal_squares(0), hit)
    pairs1, open1, blocked1 = _scan(chips1, occupied, variant.goal_squares(1), hit)
    for direction in range(4):
        # A backward line is open when no chip's forward line stops on this chip.
        free = ~hit[direction] & _HAS_BACKWARD_LINE[direction]
        open0 += (chips0 & free).bit_count()
        open1 += (chips1 & free).bit_count()
    return (
        _total(variant, 0, chips0, pairs0, open0, blocked0),
        _total(variant, 1, chips1, pairs1, open1, blocked1),
    )


def _scan(
    chips: int, occupied: int, goals: int, hit: list[int]
) -> tuple[list[tuple[int, int]], int, int]:
    """One player's connections, open forward lines and blocked lines.

    Marks in ``hit`` (per forward direction) every chip some forward line stops on.
    """
    pairs = []
    open_lines = blocked = 0
    rays = UP_RAYS
    bits = chips
    while bits:
        bit = bits & -bits
        bits ^= bit
        for direction, ray in rays[bit.bit_length() - 1]:
            seen = ray & occupied
            if not seen:
                open_lines += 1
                continue
            first = seen & -seen
            hit[direction] |= first
            if first & chips:
                if not (bit & goals and first & goals):
                    pairs.append((bit, first))
            else:
                beyond = seen ^ first
                if beyond & -beyond & chips:
                    blocked += 1
    return pairs, open_lines, blocked


def _total(
    variant: Variant,
    side: int,
    chips: int,
    pairs: list[tuple[int, int]],
    open_lines: int,
    blocked: int,
) -> int:
    """One player's score from its counted features."""
    first, last = variant.goals[side]
    return (
        CONNECTION * len(pairs)
        + OPEN_LINE * open_lines
        - BLOCKED * blocked
        + _goal_score(chips & first)
        + _goal_score(chips & last)
        + _reach_score(pairs, first, last, chips)
    )


def _goal_score(in_goal: int) -> int:
    """A chip in a goal is needed; more than one there is wasted."""
    if not in_goal:
        return 0
    return GOAL - CROWDED_GOAL * (in_goal.bit_count() - 1)


def _reach_score(pairs: list[tuple[int, int]], first: int, last: int, chips: int) -> int:
    """Chips tied to a goal through connections, and whether the two goals are joined."""
    inner = chips & ~(first | last)
    from_first = _spread(pairs, chips & first, inner)
    from_last = _spread(pairs, chips & last, inner)
    score = REACH * ((from_first | from_last) & inner).bit_count()
    if from_first & from_last & inner:
        score += CHAIN
    return score


def _spread(pairs: list[tuple[int, int]], start: int, inner: int) -> int:
    """``start`` and the chips outside the goals it reaches through connections."""
    reached = start
    grew = True
    while grew:
        grew = False
        for a, b in pairs:
            if a & reached and b & inner & ~reached:
                reached |= b
                grew = True
            elif b & reached and a & inner & ~reached:
                reached |= a
                grew = True
    return reached
