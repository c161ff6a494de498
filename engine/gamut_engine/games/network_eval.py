"""Network's evaluation function and move ordering for the generic alpha-beta search.

The evaluation reads every chip's four forward lines once (the backward lines follow
from who saw whom) and scores, for each player: connections between its chips (pairs
that see each other), open lines (room for future connections), lines the opponent
blocks, a chip in each goal, and how many chips hang together with a goal through
connections, with a bonus once a chain of connections joins both goals. During the add
moves it also spots squares that would complete a network at once. Move ordering puts
first the moves whose square sees the most own chips and cuts enemy connections.
"""

from __future__ import annotations

from gamut_engine.games.network_board import (
    ALL_SQUARES,
    CHIPS,
    DOWN_RAYS,
    MIN_NETWORK,
    NEIGHBOURS,
    SQUARES,
    UP_RAYS,
    completing_squares,
    gains_link,
    squares_of,
)
from gamut_engine.games.network_rules import NetworkState, Variant, targets

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
THREAT = 400
"""Per square (counting two at most) where the opponent's next add completes a network."""

_HAS_BACKWARD_LINE: tuple[int, ...] = tuple(
    sum(1 << index for index in range(SQUARES) if any(d == back for d, _ in DOWN_RAYS[index]))
    for back in range(4, 8)
)
"""Per forward direction, the squares that have a line in the opposite direction."""


def evaluate(variant: Variant, state: NetworkState) -> int:
    """The position's worth for the side to move: its features minus the opponent's.

    While chips are being added it also looks one add ahead: a side to move that can
    complete a network scores :data:`WIN_NEXT`, and each square (up to two) where the
    opponent could costs :data:`THREAT`.
    """
    side = state.ply & 1
    own, other = state.boards()
    if winning_adds(variant, side, own, other, 1):
        return WIN_NEXT
    score0, score1 = _scores(variant, state.chips0, state.chips1)
    score = (score1 - score0 if side else score0 - score1) + TEMPO
    return score - THREAT * winning_adds(variant, side ^ 1, other, own, 2)


def winning_adds(variant: Variant, side: int, own: int, other: int, limit: int) -> int:
    """How many squares (up to ``limit``) would complete a network for ``side`` at once.

    Only add moves are looked at (a side with all its chips placed has none). A
    candidate square must be open to ``side`` and see two of its chips (one, for a
    goal square), and the chips must reach both goals and six in number once it is added.
    """
    count = own.bit_count()
    if count < MIN_NETWORK - 1 or count >= CHIPS:
        return 0
    first, last = variant.goals[side]
    goals = first | last
    inner = (own & ~goals).bit_count()
    if inner < MIN_NETWORK - 3:
        return 0
    occupied = own | other
    once, twice = _sight_counts(own, occupied)
    candidates = targets(variant, side, own, occupied) & (twice | once & goals)
    if inner == MIN_NETWORK - 3:
        candidates &= ~goals
    if not own & first:
        candidates &= first
    if not own & last:
        candidates &= last
    if not candidates:
        return 0
    return completing_squares(own, occupied, first, last, candidates, limit)


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


def order_moves(variant: Variant, state: NetworkState, moves: list[int]) -> list[int]:
    """``moves`` best first: squares that see own chips and cut enemy connections."""
    side = state.ply & 1
    own, other = state.boards()
    occupied = own | other
    once, twice = _sight_counts(own, occupied)
    cuts = _enemy_lines(other, occupied)
    wanted = 0
    for goal in variant.goals[side]:
        if not own & goal:
            wanted |= goal
    adding = own.bit_count() < CHIPS

    def gain(target: int) -> int:
        bit = 1 << target
        return (
            (3 if bit & once else 0)
            + (3 if bit & twice else 0)
            + (4 if bit & cuts else 0)
            + (2 if bit & wanted else 0)
            - (1 if NEIGHBOURS[target] & own else 0)
        )

    if adding:
        return sorted(moves, key=gain, reverse=True)
    # A step's worth: what its target gains less what its origin gives up, each
    # worked out once per square rather than once per move.
    worth = [0] * (2 * SQUARES)
    for origin in squares_of(own):
        worth[origin] = -_loss(origin, own, other, occupied)
    for target in squares_of(~occupied & ALL_SQUARES):
        worth[SQUARES + target] = gain(target)
    return sorted(
        moves, key=lambda move: worth[(move >> 6) - 1] + worth[SQUARES + (move & 63)], reverse=True
    )


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


def _sight_counts(own: int, occupied: int) -> tuple[int, int]:
    """Empty squares that see at least one, and at least two, of ``own``'s chips."""
    once = twice = 0
    for index in squares_of(own):
        sight = 0
        for _, ray in UP_RAYS[index]:
            seen = ray & occupied
            sight |= ray & ((seen & -seen) - 1) if seen else ray
        for _, ray in DOWN_RAYS[index]:
            seen = ray & occupied
            sight |= ray & ~((1 << seen.bit_length()) - 1) if seen else ray
        twice |= once & sight
        once |= sight
    return once, twice


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
