"""A board's shape: enough for a generic client to draw any game.

A board is its cells, listed row by row (the order :meth:`Game.occupancy` follows),
plus named special areas. Two common shapes need nothing more: a ``square`` board
(every row as long, cells side by side) and a ``hex`` board (a hexagon of hexagons
with ``n`` cells a side, each row centred). Any other board is a ``plane`` board and
gives every cell its place: the centre of the cell in a plane where ``x`` grows to the
right and ``y`` downwards, in units of the distance between the centres of two cells
sharing an edge, and the cell's shape; it also names its rows and its columns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

CellShape = Literal["square", "hex_pointy", "hex_flat"]
"""A cell's outline: a square, or a regular hexagon with a point or a flat side on top."""


@dataclass(frozen=True, slots=True)
class Place:
    """Where one cell of a ``plane`` board is, and its outline."""

    x: float
    """The centre's distance from the left, in cell widths."""
    y: float
    """The centre's distance from the top, in cell widths."""
    shape: CellShape = "square"
    """The cell's outline."""


@dataclass(frozen=True, slots=True)
class Line:
    """A named row or column of a ``plane`` board (a rhombus' columns slant, say)."""

    name: str
    """The label people read, such as ``a`` or ``5``."""
    cells: tuple[str, ...]
    """Its cells in order."""


@dataclass(frozen=True, slots=True)
class Geometry:
    """The board's cells, their rows and places, and its special areas."""

    kind: Literal["square", "hex", "plane"]
    """``square``, ``hex`` (a hexagon of hexagons), or ``plane`` (every cell placed)."""
    rows: tuple[tuple[str, ...], ...]
    """The cell names row by row from the top, left to right."""
    areas: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Named special areas: ``goal:0``/``goal:1`` (a side's goals), ``dead`` (unusable)."""
    places: Mapping[str, Place] = field(default_factory=dict)
    """A ``plane`` board's every cell: its centre and outline."""
    row_names: tuple[str, ...] = ()
    """A ``plane`` board's label for each row, in order."""
    columns: tuple[Line, ...] = ()
    """A ``plane`` board's named columns."""
    pick_lines: tuple[tuple[str, ...], ...] = ()
    """Lines of cells (a drop game's columns) in which choosing any cell chooses the
    line's one legal single-cell move: a click or Enter anywhere in a column drops there."""

    def __post_init__(self) -> None:
        if self.kind == "plane":
            missing = set(self.cells) - set(self.places)
            if missing or len(self.row_names) != len(self.rows):
                raise ValueError("a plane board places every cell and names every row")
        if not {cell for line in self.pick_lines for cell in line} <= set(self.cells):
            raise ValueError("pick lines name cells not on the board")

    @property
    def cells(self) -> tuple[str, ...]:
        """Every cell name in row order: the order :meth:`Game.occupancy` follows."""
        return tuple(name for row in self.rows for name in row)
