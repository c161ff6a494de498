"""Where each cell of a board sits on the screen, read from a game descriptor alone.

A square board is a grid of cells three characters wide. A hex board's rows are
centred: each row is shifted by half a cell from its neighbours, so a cell sits
between the two cells it touches in the rows above and below. Coordinates come
from the cell names themselves (what every name in a row or column shares), so a
game the client has never seen still gets its labels. Moving the cursor up or
down picks the nearest cell of the next row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from gamut_protocol import GameDescriptor

Direction = Literal["up", "down", "left", "right"]
"""A cursor move."""

CELL_WIDTH: Final = 3
"""Characters a cell takes: its glyph with a space either side."""

SQUARE_PITCH: Final = 3
"""Characters from one cell of a square row to the next (no gap: areas shade evenly)."""

HEX_PITCH: Final = 4
"""Characters from one cell of a hex row to the next; rows shift by half of it."""


@dataclass(frozen=True, slots=True)
class Place:
    """Where one cell is: its row, its place in the row, and its column on screen."""

    row: int
    """The row, 0 for the top row."""
    index: int
    """The place in the row, 0 for the leftmost cell."""
    x: int
    """The screen column of the cell's left edge, counted from the board's left edge."""


@dataclass(frozen=True)
class BoardLayout:
    """The screen layout of one board: cell places, labels and areas."""

    kind: Literal["square", "hex"]
    """``square`` or ``hex``."""
    rows: tuple[tuple[str, ...], ...]
    """Cell names row by row, top row first."""
    places: dict[str, Place]
    """Each cell's place."""
    areas: dict[str, frozenset[str]]
    """Named special areas (``goal:0``, ``goal:1``, ``dead``…) and their cells."""
    row_labels: tuple[str, ...]
    """A label for each row, from what its cell names share."""
    column_labels: tuple[str, ...]
    """A label for each column of a square board (none for a hex board)."""
    width: int
    """Screen columns the cells span."""

    @classmethod
    def from_descriptor(cls, descriptor: GameDescriptor) -> BoardLayout:
        """The layout of the board ``descriptor`` describes."""
        geometry = descriptor.geometry
        rows = tuple(tuple(row) for row in geometry.rows)
        areas = {name: frozenset(cells) for name, cells in geometry.areas.items()}
        if geometry.kind == "hex":
            places = _hex_places(rows)
            columns: tuple[str, ...] = ()
        else:
            places = _square_places(rows)
            columns = tuple(shared_affix(column) for column in zip(*rows, strict=True))
        width = max(place.x for place in places.values()) + CELL_WIDTH
        row_labels = tuple(shared_affix(row) for row in rows)
        return cls(geometry.kind, rows, places, areas, row_labels, columns, width)

    @property
    def cells(self) -> tuple[str, ...]:
        """Every cell name in row order (the order of a position's ``board``)."""
        return tuple(name for row in self.rows for name in row)

    def areas_of(self, cell: str) -> tuple[str, ...]:
        """The names of the areas ``cell`` belongs to, sorted."""
        return tuple(sorted(name for name, cells in self.areas.items() if cell in cells))

    def centre(self) -> str:
        """A cell near the middle of the board, where the cursor starts."""
        row = self.rows[len(self.rows) // 2]
        return row[(len(row) - 1) // 2]

    def step(self, cell: str, direction: Direction) -> str:
        """The cell the cursor reaches from ``cell`` going one step in ``direction``.

        It stays put at an edge. Going up or down it takes the cell of the next row
        nearest on screen; between two equally near (on a hex board) it takes the
        right one going down and the left one going up, so up undoes down.
        """
        place = self.places[cell]
        if direction in ("left", "right"):
            row = self.rows[place.row]
            index = place.index + (1 if direction == "right" else -1)
            return row[min(max(index, 0), len(row) - 1)]
        target = place.row + (1 if direction == "down" else -1)
        if not 0 <= target < len(self.rows):
            return cell
        prefer_right = direction == "down"
        return min(
            self.rows[target],
            key=lambda name: _distance(self.places[name].x, place.x, prefer_right),
        )


def _distance(x: int, origin: int, prefer_right: bool) -> tuple[int, int]:
    """How far ``x`` is from ``origin``, ties broken towards one side."""
    towards = x > origin if prefer_right else x < origin
    return abs(x - origin), 0 if towards else 1


def _square_places(rows: Sequence[Sequence[str]]) -> dict[str, Place]:
    """Places on a square board: every row starts at the left edge."""
    return {
        name: Place(row, index, index * SQUARE_PITCH)
        for row, names in enumerate(rows)
        for index, name in enumerate(names)
    }


def _hex_places(rows: Sequence[Sequence[str]]) -> dict[str, Place]:
    """Places on a hex board: each row centred on the longest one."""
    longest = max(len(names) for names in rows)
    half = HEX_PITCH // 2
    return {
        name: Place(row, index, (longest - len(names)) * half + index * HEX_PITCH)
        for row, names in enumerate(rows)
        for index, name in enumerate(names)
    }


def shared_affix(names: Sequence[str]) -> str:
    """What every name shares at its start or its end, the longer of the two.

    ``a8``, ``b8``… share ``8``; ``a1``, ``a2``… share ``a``; Network's ``10``,
    ``11``… share ``1``. Names sharing nothing give an empty label.
    """
    if len(names) < 2:
        return names[0] if names else ""
    prefix = _common_start(names)
    suffix = _common_start([name[::-1] for name in names])[::-1]
    return prefix if len(prefix) >= len(suffix) else suffix


def _common_start(names: Sequence[str]) -> str:
    """The longest text every name starts with."""
    first, last = min(names), max(names)
    length = 0
    while length < min(len(first), len(last)) and first[length] == last[length]:
        length += 1
    return first[:length]
