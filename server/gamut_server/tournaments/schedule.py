"""Who plays whom: a round robin's fixed schedule and an arena's pairing of idle players."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

BYE = ""
"""The empty place that makes an odd number of players even; whoever meets it rests."""


def round_robin(players: Sequence[str], cycles: int = 1) -> list[list[tuple[str, str]]]:
    """The rounds of a round robin: in each cycle every pair meets twice, once with each
    player moving first, in ``2 × (n - 1)`` rounds (``n`` rounded up to even).

    The circle method: the first player stays, the others turn one place a round; the
    second half of a cycle repeats the first with the colours swapped. Within a round,
    each player plays at most once; each pair is ``(first, second)``.
    """
    names = list(players) + ([BYE] if len(players) % 2 else [])
    half = len(names) // 2
    single: list[list[tuple[str, str]]] = []
    for turn in range(len(names) - 1):
        pairs = []
        for index in range(half):
            a, b = names[index], names[-1 - index]
            if BYE in (a, b):
                continue
            # alternate who moves first so nobody (the fixed player above all) always does
            pairs.append((a, b) if (turn + index) % 2 == 0 else (b, a))
        single.append(pairs)
        names = [names[0], names[-1], *names[1:-1]]
    swapped = [[(b, a) for a, b in pairs] for pairs in single]
    return [pairs for _ in range(cycles) for pairs in (*single, *swapped)]


def arena_pairs(
    idle: Sequence[str],
    points: Mapping[str, float],
    last_opponent: Mapping[str, str],
    firsts: Mapping[str, int],
    apart: Callable[[str, str], bool] | None = None,
) -> list[tuple[str, str]]:
    """Pair idle arena players, each with someone near in points.

    Players are taken best first; each is paired with the nearest in the order who was
    not its last opponent, if there is one (else with its last opponent: two players
    alone in an arena play again). Two players for whom ``apart`` is true (one blocked
    the other) are never paired: a player with nobody else idle waits. Of a pair,
    whoever has moved first less often moves first. An odd player out waits for the
    next game to end.
    """
    order = sorted(idle, key=lambda name: (-points.get(name, 0.0), name))
    pairs = []
    while len(order) >= 2:
        player = order.pop(0)
        allowed = [other for other in order if apart is None or not apart(player, other)]
        if not allowed:
            continue
        partner = next(
            (other for other in allowed if last_opponent.get(player) != other), allowed[0]
        )
        order.remove(partner)
        if firsts.get(partner, 0) < firsts.get(player, 0):
            player, partner = partner, player
        pairs.append((player, partner))
    return pairs
