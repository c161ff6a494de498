"""The transposition table: what a search remembers about positions it has searched.

A plain dict from the game's 64-bit Zobrist key to an entry tuple
``(depth, flag, score, move)``: tuples of small ints are the cheapest thing Python can
store and unpack. Win and loss scores are stored relative to the position itself, not to
the root, so an entry stays right when the position recurs at another ply.
"""

from __future__ import annotations

from typing import Any

from gamut_engine.search.scores import WIN_BOUND

EXACT = 0
"""The stored score is the position's value."""
LOWER = 1
"""The stored score is a lower bound: a move reached beta (a cutoff)."""
UPPER = 2
"""The stored score is an upper bound: no move reached alpha."""

DEFAULT_TABLE_SIZE = 1 << 18
"""Entries a table holds before it is trimmed (some 45-65 MB in CPython, by move type)."""

Entry = tuple[int, int, int, Any]
"""``(depth, flag, score, best move or None)``."""
Table = dict[int, Entry]
"""Zobrist key to entry."""


def to_table(score: int, ply: int) -> int:
    """A score seen ``ply`` plies below the root, made relative to its own position."""
    if score > WIN_BOUND:
        return score + ply
    if score < -WIN_BOUND:
        return score - ply
    return score


def from_table(score: int, ply: int) -> int:
    """A stored score, made relative to a root ``ply`` plies above its position."""
    if score > WIN_BOUND:
        return score - ply
    if score < -WIN_BOUND:
        return score + ply
    return score


def trim(table: Table, size: int) -> None:
    """Make room in a table grown past ``size``: drop the shallow entries, or all of them.

    Shallow entries are the most numerous and the cheapest to recompute; if dropping
    them does not free half the table, it is cleared.
    """
    shallow = [key for key, entry in table.items() if entry[0] <= 1]
    for key in shallow:
        del table[key]
    if len(table) > size // 2:
        table.clear()
