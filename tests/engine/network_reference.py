"""A slow, plain reference for Network's rules, written from the CS 61B project's rules alone.

Squares are ``(x, y)`` pairs and boards are sets; connections are found by walking
square by square. The tests compare the engine's bitboard rules with it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

Square = tuple[int, int]
STEPS: tuple[Square, ...] = tuple(
    (dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)
)
CORNERS = {(0, 0), (7, 0), (0, 7), (7, 7)}
COLUMNS = ({(0, y) for y in range(1, 7)}, {(7, y) for y in range(1, 7)})
ROWS = ({(x, 0) for x in range(1, 7)}, {(x, 7) for x in range(1, 7)})


def goals(rules: str, side: int) -> tuple[set[Square], set[Square]]:
    """The two goal areas of ``side``: cs61b side 0 and 2015 side 1 own the columns."""
    owns_columns = (side == 0) == (rules == "cs61b")
    return COLUMNS if owns_columns else ROWS


def squares_of(bits: int) -> set[Square]:
    """A bitboard as a set of squares."""
    return {(index % 8, index // 8) for index in range(64) if bits >> index & 1}


def no_clump(chips: set[Square]) -> bool:
    """Whether every connected group of ``chips`` has at most two chips."""
    for x, y in chips:
        touching = [(x + dx, y + dy) for dx, dy in STEPS if (x + dx, y + dy) in chips]
        if len(touching) >= 2:
            return False
        for tx, ty in touching:
            if any((tx + dx, ty + dy) in chips - {(x, y)} for dx, dy in STEPS):
                return False
    return True


def targets(rules: str, side: int, own: set[Square], other: set[Square]) -> set[Square]:
    """The squares where ``side`` may put a chip."""
    forbidden = CORNERS | set().union(*goals(rules, 1 - side)) | own | other
    every = {(x, y) for x in range(8) for y in range(8)}
    return {sq for sq in every - forbidden if no_clump(own | {sq})}


def legal_moves(
    rules: str, side: int, own: set[Square], other: set[Square]
) -> set[tuple[Square | None, Square]]:
    """Every legal ``(origin, target)`` move; ``origin`` is ``None`` for an add."""
    if len(own) < 10:
        return {(None, target) for target in targets(rules, side, own, other)}
    moves: set[tuple[Square | None, Square]] = set()
    for origin in own:
        for target in targets(rules, side, own - {origin}, other) - {origin}:
            after = own - {origin} | {target}
            both = has_network(rules, side, after, other) and has_network(
                rules, 1 - side, other, after
            )
            if not (rules == "2015" and both):
                moves.add((origin, target))
    return moves


def links(chip: Square, own: set[Square], other: set[Square]) -> Iterator[tuple[Square, Square]]:
    """The chips of ``own`` that ``chip`` sees, with the step leading to each."""
    for dx, dy in STEPS:
        x, y = chip[0] + dx, chip[1] + dy
        while 0 <= x < 8 and 0 <= y < 8 and (x, y) not in own | other:
            x, y = x + dx, y + dy
        if (x, y) in own:
            yield (x, y), (dx, dy)


def has_network(rules: str, side: int, own: set[Square], other: set[Square]) -> bool:
    """Whether ``side`` (chips ``own``) has a network."""
    first, last = goals(rules, side)

    def extend(path: list[Square], heading: Square | None) -> bool:
        for chip, step in links(path[-1], own, other):
            if chip in path or step == heading:
                continue
            if chip in last and len(path) >= 5:
                return True
            if chip not in first | last and extend([*path, chip], step):
                return True
        return False

    return any(extend([start], None) for start in own & first)


def is_network(
    rules: str, side: int, path: list[Square], own: set[Square], other: set[Square]
) -> bool:
    """Whether ``path`` is a network of ``side``, checked rule by rule."""
    first, last = goals(rules, side)
    if path[0] in last:
        path = path[::-1]
    if len(path) < 6 or len(set(path)) != len(path) or not set(path) <= own:
        return False
    if path[0] not in first or path[-1] not in last or set(path[1:-1]) & (first | last):
        return False
    steps = []
    for chip, following in itertools.pairwise(path):
        step = dict(links(chip, own, other)).get(following)
        if step is None:
            return False
        steps.append(step)
    return all(a != b for a, b in itertools.pairwise(steps))
