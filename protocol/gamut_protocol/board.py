"""A board of any shape: every cell with its centre and outline (protocol version 3 on).

The plane's ``x`` grows to the right and ``y`` downwards, in units of the distance
between the centres of two cells that share an edge: a square cell is 1 wide, a
hexagon is 1 across its flat sides. A client scales the plane to its screen and draws
each cell's outline around its centre; the rows and columns name the board's lines
for coordinates, and the areas mark goals and unusable cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Final, Literal, Self

from pydantic import Field, StrictStr, model_validator

from gamut_protocol.common import (
    AREA_PATTERN,
    MAX_BOARD_SIDE,
    MAX_CELLS,
    CellName,
    WireModel,
)

MAX_COORDINATE: Final = 4_096.0
"""Largest distance of a cell's centre from the plane's origin, either way."""

CellShape = Literal["square", "hex_pointy", "hex_flat"]
"""A cell's outline: a square with level sides, or a regular hexagon with a point
(``hex_pointy``) or a flat side (``hex_flat``) on top."""

AreaName = Annotated[StrictStr, Field(min_length=1, max_length=32, pattern=AREA_PATTERN)]
"""A special area's name: ``goal:0`` and ``goal:1`` (a side's goals), ``dead`` (unusable)."""

Row = Annotated[tuple[CellName, ...], Field(min_length=1, max_length=MAX_BOARD_SIDE * 2)]
"""One row (or column) of cell names, in order."""

Rows = Annotated[tuple[Row, ...], Field(min_length=1, max_length=MAX_BOARD_SIDE * 2)]
"""Every row of the board, top row first."""

Areas = Annotated[
    dict[AreaName, Annotated[tuple[CellName, ...], Field(max_length=MAX_CELLS)]],
    Field(max_length=16),
]
"""Named special areas and their cells."""

Label = Annotated[StrictStr, Field(max_length=8, pattern=r"^[^\x00-\x1f\x7f]*$")]
"""A row's or column's name as people read it (``8``, ``a``); empty for an unnamed line."""

Coordinate = Annotated[float, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE, allow_inf_nan=False)]
"""A distance in the board's plane, in cell widths."""


def cells_of(rows: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """Every cell name of ``rows`` in row order: the order of a position's ``board``."""
    return tuple(name for row in rows for name in row)


def check_cells(rows: Sequence[Sequence[str]], areas: Mapping[str, Sequence[str]]) -> None:
    """Raise ``ValueError`` unless cell names are unique and areas name only cells."""
    cells = cells_of(rows)
    if len(cells) > MAX_CELLS:
        raise ValueError(f"a board has at most {MAX_CELLS} cells, not {len(cells)}")
    if len(set(cells)) != len(cells):
        raise ValueError("cell names must be unique")
    _check_known(set(cells), {f"area {name!r}": members for name, members in areas.items()})


def _check_known(known: set[str], lines: Mapping[str, Sequence[str]]) -> None:
    """Raise ``ValueError`` if a named set of cells names a cell not on the board."""
    for name, members in lines.items():
        unknown = sorted(set(members) - known)
        if unknown:
            raise ValueError(f"{name} names cells not on the board: {unknown[:5]}")


class CellPlace(WireModel):
    """Where one cell's centre is, and its outline when it differs from the board's."""

    x: Coordinate
    """Distance from the left, in cell widths."""
    y: Coordinate
    """Distance from the top, in cell widths."""
    shape: CellShape | None = None
    """The cell's outline, when it is not the board's ``shape``."""


class BoardGeometry(WireModel):
    """Any board: its cells row by row, each cell's place, named lines and areas."""

    kind: Literal["board"] = "board"
    rows: Rows
    """Cell names row by row, top row first: the order of a position's ``board``."""
    row_names: Annotated[tuple[Label, ...], Field(max_length=MAX_BOARD_SIDE * 2)]
    """Each row's name, in order (one per row)."""
    columns: Annotated[tuple[Row, ...], Field(max_length=MAX_BOARD_SIDE * 2)] = ()
    """The board's columns, each a line of cells from the top (they may slant)."""
    column_names: Annotated[tuple[Label, ...], Field(max_length=MAX_BOARD_SIDE * 2)] = ()
    """Each column's name, in order (one per column)."""
    shape: CellShape = "square"
    """The outline of every cell whose place names none."""
    places: Annotated[dict[CellName, CellPlace], Field(max_length=MAX_CELLS)]
    """Every cell's centre (and outline, where it differs), by name."""
    areas: Areas = Field(default_factory=dict)
    """Named sets of cells: ``goal:0``/``goal:1`` are each side's goals, ``dead`` cells unusable."""
    pick_lines: Annotated[tuple[Row, ...], Field(max_length=MAX_BOARD_SIDE * 2)] | None = None
    """Lines of cells (a drop game's columns) in which choosing any cell chooses the line's
    one legal single-cell move: a click anywhere in a column drops a stone there
    (protocol version 6 on)."""

    @property
    def cells(self) -> tuple[str, ...]:
        """Every cell name in row order: the order of a position's ``board``."""
        return cells_of(self.rows)

    def shape_of(self, cell: str) -> CellShape:
        """The outline of ``cell``."""
        return self.places[cell].shape or self.shape

    @model_validator(mode="after")
    def _check_board(self) -> Self:
        """Names unique and known, one name per line, every cell placed, no two at one place."""
        check_cells(self.rows, self.areas)
        if len(self.row_names) != len(self.rows):
            raise ValueError(f"{len(self.rows)} rows need as many row names")
        if len(self.column_names) != len(self.columns):
            raise ValueError(f"{len(self.columns)} columns need as many column names")
        cells = set(self.cells)
        if set(self.places) != cells:
            raise ValueError("places must name every cell of the rows and nothing else")
        _check_known(cells, {f"column {i + 1}": line for i, line in enumerate(self.columns)})
        picks = enumerate(self.pick_lines or ())
        _check_known(cells, {f"pick line {i + 1}": line for i, line in picks})
        centres = {(round(place.x, 3), round(place.y, 3)) for place in self.places.values()}
        if len(centres) != len(cells):
            raise ValueError("two cells have the same centre")
        return self
