"""Network threats: the squares and step moves that would complete a network at once.

The evaluation counts threats as a one-move look-ahead and the move ordering puts
winning moves first and blocking moves early. :func:`winning_steps` is exact, which lets
the move ordering leave out step moves safely (see :mod:`gamut_engine.games.network_order`).
"""

from __future__ import annotations

from gamut_engine.games.network_board import (
    ALL_SQUARES,
    DIRECTIONS,
    DOWN_RAYS,
    MIN_NETWORK,
    SIZE,
    UP_RAYS,
    Links,
    cluster_squares,
    gains_link,
    squares_of,
    step_move,
)
from gamut_engine.games.network_paths import (
    all_links,
    completing_mask,
    completing_with_links,
    find_network,
    lifted_links,
)
from gamut_engine.games.network_rules import Variant, networks, targets


def _fill_masks(dx: int) -> int:
    """The squares a shift in a direction with file step ``dx`` may land on without
    wrapping from one edge of the board to the other."""
    if dx == 0:
        return ALL_SQUARES
    edge = 0 if dx > 0 else SIZE - 1
    return ALL_SQUARES & ~sum(1 << (row * SIZE + edge) for row in range(SIZE))


_SHIFTS: tuple[tuple[int, int], ...] = tuple(
    (dy * SIZE + dx, _fill_masks(dx)) for dx, dy in DIRECTIONS
)
"""Per line direction, its shift in square indices and where a shift may land."""
_UP_SHIFTS = tuple((shift, mask) for shift, mask in _SHIFTS if shift > 0)
_DOWN_SHIFTS = tuple((-shift, mask) for shift, mask in _SHIFTS if shift < 0)


def sight_counts(own: int, occupied: int) -> tuple[int, int]:
    """Empty squares that see at least one, and at least two, of ``own``'s chips.

    Each direction's sight is one occluded fill of the whole board (doubling the
    distance at each of three steps) rather than a walk along every chip's ray. A square
    sees at most one chip per direction, and never the same chip from two directions,
    so two directions mean two chips.
    """
    empty = ~occupied & ALL_SQUARES
    once = twice = 0
    for shift, mask in _UP_SHIFTS:
        spread = empty & mask
        reached = own | spread & own << shift
        spread &= spread << shift
        reached |= spread & reached << 2 * shift
        spread &= spread << 2 * shift
        reached |= spread & reached << 4 * shift
        sight = reached & empty
        twice |= once & sight
        once |= sight
    for shift, mask in _DOWN_SHIFTS:
        spread = empty & mask
        reached = own | spread & own >> shift
        spread &= spread >> shift
        reached |= spread & reached >> 2 * shift
        spread &= spread >> 2 * shift
        reached |= spread & reached >> 4 * shift
        sight = reached & empty
        twice |= once & sight
        once |= sight
    return once, twice


CACHE_SIZE = 1 << 17
"""Threat answers remembered before the memory is cleared (a search asks again and again)."""

_cache: dict[tuple[str, int, int, int, int, int], int] = {}
_latest: dict[tuple[str, int, int], tuple[int, int, int]] = {}
"""Per side and own chips, the latest complete answer: opponent chips, open squares,
threat squares."""


def threat_squares(
    variant: Variant, side: int, own: int, other: int, open_squares: int, limit: int
) -> int:
    """The squares of ``open_squares`` (``limit`` at most) where one more chip of ``side``
    would complete a network, whatever the number of chips already placed (remembered)."""
    key = (variant.rules, side, own, other, open_squares, limit)
    found = _cache.get(key)
    if found is None:
        if len(_cache) >= CACHE_SIZE:
            _cache.clear()
            _latest.clear()
        chips = (variant.rules, side, own)
        latest = _latest.get(chips)
        if latest is not None and not latest[0] & ~other and not open_squares & ~latest[1]:
            # More opponent chips and fewer open squares only take threats away, so a
            # complete answer for the same own chips bounds this one.
            open_squares &= latest[2]
        found = (
            _threat_squares(variant, side, own, other, open_squares, limit) if open_squares else 0
        )
        _cache[key] = found
        if found.bit_count() < limit:
            _latest[chips] = (other, open_squares, found)
        elif chips in _latest:
            del _latest[chips]
    return found


def _threat_squares(
    variant: Variant, side: int, own: int, other: int, open_squares: int, limit: int
) -> int:
    """The squares of ``open_squares`` (``limit`` at most) where one more chip of ``side``
    would complete a network, whatever the number of chips already placed.

    A square must see two of the chips (one, for a goal square), and the chips must
    reach both goals and six in number once it is added.
    """
    if own.bit_count() < MIN_NETWORK - 1:
        return 0
    first, last = variant.goals[side]
    goals = first | last
    inner = (own & ~goals).bit_count()
    if inner < MIN_NETWORK - 3:
        return 0
    occupied = own | other
    once, twice = sight_counts(own, occupied)
    candidates = open_squares & ~occupied & (twice | once & goals)
    if inner == MIN_NETWORK - 3:
        candidates &= ~goals
    if not own & first:
        candidates &= first
    if not own & last:
        candidates &= last
    if not candidates:
        return 0
    return completing_mask(own, occupied, first, last, candidates, limit)


def add_threats(variant: Variant, side: int, own: int, other: int, limit: int) -> int:
    """The squares (``limit`` at most) where an add move of ``side`` completes a network."""
    open_squares = targets(variant, side, own, own | other)
    return threat_squares(variant, side, own, other, open_squares, limit)


def step_threat(variant: Variant, side: int, own: int, other: int) -> bool:
    """Whether ``side`` is likely to complete a network with its next step.

    True when one more chip on some square completes a network and a chip outside
    that network may step there. Cheaper than :func:`winning_steps` and almost as
    good: it may miss a network that another path than the one tried would give, or
    count one whose step would also complete the opponent's network.
    """
    occupied = own | other
    threats = threat_squares(variant, side, own, other, variant.allowed[side], 2)
    first, last = variant.goals[side]
    for target in squares_of(threats):
        bit = 1 << target
        path = find_network(own | bit, occupied | bit, first, last)
        if path is None:
            continue
        used = sum(1 << index for index in path)
        for origin in squares_of(own & ~used):
            if not cluster_squares(own ^ 1 << origin) & bit:
                return True
    return False


_steps_memory: dict[tuple[str, int, int, int], tuple[int, list[int]]] = {}
"""Per side and board, the limit last asked of :func:`winning_steps` and its answer."""


def winning_steps(variant: Variant, side: int, own: int, other: int, limit: int) -> list[int]:
    """The legal step moves of ``side`` (``limit`` at most) that win the game at once.

    Remembered by board: the defences a position's moves are checked for are the same
    question its children ask first. An answer with fewer steps than were asked for is
    complete, so it serves any limit. See :func:`_winning_steps`.
    """
    key = (variant.rules, side, own, other)
    known = _steps_memory.get(key)
    if known is not None and (len(known[1]) < known[0] or len(known[1]) >= limit):
        return known[1][:limit]
    if len(_steps_memory) >= CACHE_SIZE:
        _steps_memory.clear()
    found = _winning_steps(variant, side, own, other, limit)
    _steps_memory[key] = (limit, found)
    return found[:limit]


def _winning_steps(variant: Variant, side: int, own: int, other: int, limit: int) -> list[int]:
    """The legal step moves of ``side`` (``limit`` at most) that win the game at once.

    Exact. A winning step either lands on a square where one more chip completes a
    network with the chip still on its origin, or its origin blocked a line the network
    needs: one between two own chips, or one from an own chip to the target. For each
    origin those targets are tried with the connections the lifted chip leaves.
    """
    occupied = own | other
    first, last = variant.goals[side]
    once, twice = sight_counts(own, occupied)
    # A target sees two own chips once the origin is lifted (one, in a goal) only if it
    # sees two now, the origin counted.
    seeing = variant.allowed[side] & ~occupied & (twice | once & (first | last))
    if not seeing:
        return []
    links = all_links(own, occupied, last)
    threats = _threats_with_links(variant, side, links, own, occupied, seeing)
    found: list[int] = []
    for origin in squares_of(own):
        lifted_own, lifted = own ^ 1 << origin, occupied ^ 1 << origin
        if gains_link(origin, own, lifted):
            if find_network(lifted_own, lifted, first, last) is not None:
                found += _opening_steps(variant, side, own, other, origin)
                if len(found) >= limit:
                    return found[:limit]
                continue
            reach = ALL_SQUARES
        else:
            reach = threats | _behind(origin, own, lifted)
        reach &= seeing & _goal_squares_needed(variant, side, lifted_own)
        if not reach:
            continue
        free = targets(variant, side, lifted_own, lifted) & reach & ~(1 << origin)
        if not free:
            continue
        trial = lifted_links(links, own, occupied, origin)
        wins = completing_with_links(trial, lifted_own, lifted, first, last, free, 64)
        for target in squares_of(wins):
            if not gives_network(variant, side, origin, target, own, other):
                found.append(step_move(origin, target))
                if len(found) >= limit:
                    return found
    return found


def _threats_with_links(
    variant: Variant, side: int, links: Links, own: int, occupied: int, seeing: int
) -> int:
    """Every square where one more chip of ``side`` completes a network (see
    :func:`threat_squares`), with the connections and the squares ``seeing`` enough
    chips already worked out."""
    first, last = variant.goals[side]
    candidates = seeing & _goal_squares_needed(variant, side, own)
    if not candidates:
        return 0
    return completing_with_links(links, own, occupied, first, last, candidates, 64)


def _goal_squares_needed(variant: Variant, side: int, own: int) -> int:
    """Where one more chip must go for ``own`` to reach both goals: anywhere, or a goal."""
    first, last = variant.goals[side]
    squares = ALL_SQUARES
    if not own & first:
        squares &= first
    if not own & last:
        squares &= last
    return squares


def _opening_steps(variant: Variant, side: int, own: int, other: int, origin: int) -> list[int]:
    """The winning steps from ``origin``, whose lift alone opens a network: tried one by one."""
    lifted_own, lifted = own ^ 1 << origin, (own | other) ^ 1 << origin
    found = []
    for target in squares_of(targets(variant, side, lifted_own, lifted) & ~(1 << origin)):
        move = step_move(origin, target)
        mine, theirs = networks(variant, side, lifted_own | 1 << target, other, move)
        if mine is not None and theirs is None:
            found.append(move)
    return found


def gives_network(
    variant: Variant, side: int, origin: int, target: int, own: int, other: int
) -> bool:
    """Whether ``side`` stepping from ``origin`` to ``target`` completes the opponent's
    network (which loses under cs61b rules and is not allowed under 2015 rules)."""
    occupied = (own | other) ^ 1 << origin | 1 << target
    if not gains_link(origin, other, occupied):
        return False
    return find_network(other, occupied, *variant.goals[side ^ 1]) is not None


def _behind(origin: int, own: int, lifted: int) -> int:
    """The empty squares behind the chip on ``origin`` as seen from another own chip:
    where a chip sees that one once ``origin`` is lifted."""
    behind = 0
    rays = (*UP_RAYS[origin], *DOWN_RAYS[origin])
    ends = [_first(direction, ray, lifted) for direction, ray in rays]
    by_direction = {direction: end for (direction, _), end in zip(rays, ends, strict=True)}
    for direction, ray in rays:
        end = by_direction.get(direction ^ 4, 0)
        if end & own:
            seen = ray & lifted
            behind |= ray & ~_beyond(direction, seen) if seen else ray
    return behind


def _first(direction: int, ray: int, occupied: int) -> int:
    """The first occupied square along ``ray`` (in ``direction``), as a bit, or 0."""
    seen = ray & occupied
    if not seen:
        return 0
    return seen & -seen if direction < 4 else 1 << (seen.bit_length() - 1)


def _beyond(direction: int, seen: int) -> int:
    """The squares from the first of ``seen`` on, along a ray in ``direction``."""
    if direction < 4:
        first = seen & -seen
        return ALL_SQUARES & ~(first - 1)
    return (1 << seen.bit_length()) - 1
