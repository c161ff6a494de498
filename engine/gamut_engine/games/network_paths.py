"""Networks on Network's bitboards: finding one, and the squares where one more chip
completes one.

A network runs from a chip in one goal to a chip in the other through at least four
chips outside both goals, each connected to the next, never using a chip twice and
changing direction at every chip. The search works on the chips' connections
(:data:`Links`), read once per position and adjusted, not re-read, for a chip added or
lifted.
"""

from __future__ import annotations

from gamut_engine.games.network_board import (
    MIN_NETWORK,
    UP_RAYS,
    Links,
    Path,
    linked,
    squares_of,
)


def all_links(own: int, occupied: int, end: int) -> Links:
    """:func:`linked` for every chip of ``own`` outside ``end``, in the same order.

    Each line is read once, from its lower end, and serves both chips it joins.
    """
    ups: dict[int, list[tuple[int, int]]] = {}
    downs: dict[int, list[tuple[int, int]]] = {}
    for index in squares_of(own):
        ups[index] = []
        downs[index] = []
    for index in ups:
        up = ups[index]
        for direction, ray in UP_RAYS[index]:
            seen = ray & occupied
            if seen:
                first = seen & -seen
                if first & own:
                    chip = first.bit_length() - 1
                    up.append((chip, direction))
                    downs[chip].append((index, direction ^ 4))
    links = {}
    for index in squares_of(own & ~end):
        down = downs[index]
        if len(down) > 1:
            down.sort(key=_direction)
        links[index] = ups[index] + down
    return links


def _direction(link: tuple[int, int]) -> int:
    return link[1]


def find_network(own: int, occupied: int, start: int, end: int) -> Path | None:
    """A network of ``own`` from goal ``start`` to goal ``end`` (masks), or ``None``.

    A network runs from a chip in one goal to a chip in the other through at least
    four chips outside both goals, each connected to the next, never using a chip
    twice and changing direction at every chip.
    """
    inner = own & ~(start | end)
    if not own & start or not own & end or inner.bit_count() < MIN_NETWORK - 2:
        return None
    return _search(all_links(own, occupied, end), own, start, end)


def completing_squares(
    own: int, occupied: int, start: int, end: int, candidates: int, limit: int
) -> int:
    """How many of the empty ``candidates`` (``limit`` at most) would complete a network."""
    return completing_mask(own, occupied, start, end, candidates, limit).bit_count()


def completing_mask(
    own: int, occupied: int, start: int, end: int, candidates: int, limit: int
) -> int:
    """The empty ``candidates`` (the ``limit`` lowest at most) that would complete a network.

    Without a network before, any network after an added chip runs through it.
    """
    links = all_links(own, occupied, end)
    return completing_with_links(links, own, occupied, start, end, candidates, limit)


def completing_with_links(
    links: Links, own: int, occupied: int, start: int, end: int, candidates: int, limit: int
) -> int:
    """:func:`completing_mask` given the connections of ``own``'s chips outside ``end``.

    The connections are read once; each candidate only redirects the lines it cuts to
    itself. A candidate needs two connections, or one on a goal square.
    """
    inner = own & ~(start | end)
    from_start = _reach(links, list(squares_of(own & start)), inner)
    to_end = _reach(
        links, [c for c in squares_of(inner) if any(end >> x & 1 for x, _ in links[c])], inner
    )
    from_start |= own & start
    to_end |= own & end
    found = 0
    count = 0
    for index in squares_of(candidates):
        seen = linked(index, own, occupied)
        if not _may_bridge(index, seen, start, end, from_start, to_end):
            continue
        trial = dict(links)
        trial[index] = seen
        for chip, direction in seen:
            if chip in links:
                back = direction ^ 4  # the opposite direction
                trial[chip] = [link for link in links[chip] if link[1] != back]
                trial[chip].append((index, back))
        if _search(trial, own | 1 << index, start, end) is not None:
            found |= 1 << index
            count += 1
            if count >= limit:
                break
    return found


def _reach(links: Links, sources: list[int], inner: int) -> int:
    """The ``inner`` chips among ``sources`` or that connections from them reach through
    inner chips."""
    reached = 0
    for chip in sources:
        reached |= 1 << chip
    reached &= inner
    frontier = sources
    while frontier:
        found = []
        for chip in frontier:
            for target, _ in links[chip]:
                if inner >> target & 1 and not reached >> target & 1:
                    reached |= 1 << target
                    found.append(target)
        frontier = found
    return reached


def _may_bridge(
    index: int, seen: list[tuple[int, int]], start: int, end: int, from_start: int, to_end: int
) -> bool:
    """Whether a chip on ``index`` with connections ``seen`` may join a chain from the
    ``start`` goal (through ``from_start``) to the ``end`` goal (through ``to_end``).

    A cheap necessary condition for a network through it, lines it cuts aside.
    """
    bit = 1 << index
    if bit & start:
        return any(to_end >> chip & 1 and not end >> chip & 1 for chip, _ in seen)
    if bit & end:
        return any(from_start >> chip & 1 and not start >> chip & 1 for chip, _ in seen)
    for chip, _ in seen:
        if from_start >> chip & 1:
            for other, _ in seen:
                if other != chip and to_end >> other & 1:
                    return True
    return False


def lifted_links(links: Links, own: int, occupied: int, origin: int) -> Links:
    """The connections of ``links`` once the own chip on ``origin`` is lifted.

    Chips that saw each other through it now connect; ``own`` and ``occupied`` are the
    boards before the lift.
    """
    through = links[origin] if origin in links else linked(origin, own, occupied)
    lifted = dict(links)
    lifted.pop(origin, None)
    by_direction = {direction: chip for chip, direction in through}
    for chip, direction in through:
        if chip not in lifted:
            continue
        back = direction ^ 4
        kept = [link for link in lifted[chip] if link[0] != origin]
        beyond = by_direction.get(back)
        if beyond is not None:
            kept.append((beyond, back))
        lifted[chip] = kept
    return lifted


def _search(links: Links, own: int, start: int, end: int) -> Path | None:
    """A network over the connections in ``links``, from a chip in ``start`` to ``end``."""
    starts = own & start
    for first in squares_of(starts):
        path = [first]
        # Every start chip counts as used: a network never passes through its goal.
        if _extend(links, path, starts, -1, end):
            return tuple(path)
    return None


def _extend(links: Links, path: list[int], used: int, heading: int, end: int) -> bool:
    """Depth-first search for the rest of a network after ``path``; extends it in place."""
    for target, direction in links[path[-1]]:
        if direction == heading or used >> target & 1:
            continue
        if end >> target & 1:
            if len(path) >= MIN_NETWORK - 1:
                path.append(target)
                return True
            continue
        path.append(target)
        if _extend(links, path, used | 1 << target, direction, end):
            return True
        path.pop()
    return False
