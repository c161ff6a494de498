"""Where each cell of a board sits on the screen, read from a game descriptor alone.

Every cell's centre comes from the descriptor (protocol version 3's ``board``
geometry, or the place an older ``square`` or ``hex`` board implies). Cells at the
same height share a screen line; across, centres map onto screen columns at the
narrowest pitch that keeps a line's cells three characters apart, so a square
board is a grid of touching cells and a row of hexagons sits half a cell from its
neighbours. Rows are labelled on the left (and on the right where the board has
columns), columns above their top cell and below their bottom one. Moving the
cursor up or down picks the nearest cell of the next line.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from typing import Final, Literal

from gamut_protocol import BoardGeometry, GameDescriptor, board_of

Direction = Literal["up", "down", "left", "right"]
"""A cursor move."""

CELL_WIDTH: Final = 3
"""Characters a cell takes: its glyph with a space either side."""

PRECISION: Final = 3
"""Decimals of a centre that tell two heights or two columns apart."""

SPREAD: Final = 4
"""Most smallest steps across a board may span per distinct column before the layout
keeps only the columns' order (so no board draws wider than a few cells a column)."""


@dataclass(frozen=True, slots=True)
class Place:
    """Where one cell is: its line, its place in the line, and its column on screen."""

    row: int
    """The screen line, 0 for the top one."""
    index: int
    """The place in the line, 0 for the leftmost cell."""
    x: int
    """The screen column of the cell's left edge, counted from the board's left edge."""


@dataclass(frozen=True)
class BoardLayout:
    """The screen layout of one board: cell places, labels and areas."""

    rows: tuple[tuple[str, ...], ...]
    """Cell names line by line, top line first, each left to right."""
    places: dict[str, Place]
    """Each cell's place."""
    areas: dict[str, frozenset[str]]
    """Named special areas (``goal:0``, ``goal:1``, ``dead``…) and their cells."""
    row_labels: tuple[str, ...]
    """A label for each line: the name of the board's row that starts on it."""
    column_labels: tuple[str, ...]
    """The name of each of the board's columns (none on a board without columns)."""
    column_tops: tuple[int, ...]
    """The screen column of each column's top cell, where its label goes above the board."""
    column_bottoms: tuple[int, ...]
    """The screen column of each column's bottom cell, where its label goes below."""
    width: int
    """Screen columns the cells span."""
    unit: int
    """Screen columns for the smallest step across between two cells' centres."""
    pitch: int
    """Screen columns between the closest neighbours on one line."""

    @classmethod
    def from_descriptor(cls, descriptor: GameDescriptor) -> BoardLayout:
        """The layout of the board ``descriptor`` describes."""
        board = board_of(descriptor.geometry)
        lines = _lines(board)
        steps = _steps(board.places[cell].x for cell in board.cells)
        across = {cell: steps[round(board.places[cell].x, PRECISION)] for cell in board.cells}
        gap = min((across[b] - across[a] for line in lines for a, b in pairwise(line)), default=1)
        unit = math.ceil(CELL_WIDTH / max(gap, 1))
        places = {
            name: Place(row, index, across[name] * unit)
            for row, line in enumerate(lines)
            for index, name in enumerate(line)
        }
        line_of = {name: place.row for name, place in places.items()}
        labels = [""] * len(lines)
        for name, row in reversed(list(zip(board.row_names, board.rows, strict=True))):
            labels[line_of[row[0]]] = name
        return cls(
            rows=lines,
            places=places,
            areas={name: frozenset(cells) for name, cells in board.areas.items()},
            row_labels=tuple(labels),
            column_labels=board.column_names,
            column_tops=tuple(places[column[0]].x for column in board.columns),
            column_bottoms=tuple(places[column[-1]].x for column in board.columns),
            width=max(place.x for place in places.values()) + CELL_WIDTH,
            unit=unit,
            pitch=unit * max(gap, 1),
        )

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


def _lines(board: BoardGeometry) -> tuple[tuple[str, ...], ...]:
    """The board's cells grouped by height, top first, each group left to right."""
    heights: dict[float, list[str]] = {}
    for cell in board.cells:
        heights.setdefault(round(board.places[cell].y, PRECISION), []).append(cell)
    return tuple(
        tuple(sorted(heights[y], key=lambda cell: board.places[cell].x)) for y in sorted(heights)
    )


def _steps(values: Iterable[float]) -> dict[float, int]:
    """Each value's distance from the smallest, in units of the smallest gap between two."""
    distinct = sorted({round(value, PRECISION) for value in values})
    gaps = [b - a for a, b in pairwise(distinct)]
    step = min(gaps, default=1.0)
    if (distinct[-1] - distinct[0]) / step > SPREAD * len(distinct):
        # Centres far apart for their number (a hostile or odd board): keep only their order.
        return {value: rank for rank, value in enumerate(distinct)}
    return {value: round((value - distinct[0]) / step) for value in distinct}
