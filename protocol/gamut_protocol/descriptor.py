"""Game descriptors and positions: enough to draw any game without its rules.

A generic client draws the board from the descriptor's geometry (the cell names row by
row, top row first, and from protocol version 3 every cell's centre and outline: see
:mod:`gamut_protocol.board`), colours the special areas, and fills each cell from the
position's ``board`` (the side owning it, in the same order). It never needs the
engine; moves go back to the server as text in the notation the hint describes.
Versions 1 and 2 know only ``square`` and ``hex`` boards (:mod:`gamut_protocol.versions`).
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import Field, StrictInt, StrictStr, model_validator

from gamut_protocol.board import Areas, BoardGeometry, Rows, cells_of, check_cells
from gamut_protocol.common import (
    MAX_BOARD_SIDE,
    MAX_CELLS,
    MAX_ENCODING_LENGTH,
    GameName,
    GameOptions,
    MoveText,
    Owner,
    Ply,
    Sentence,
    Side,
    Title,
    WireModel,
)


class SquareGeometry(WireModel):
    """A rectangular board of ``width`` × ``height`` cells."""

    kind: Literal["square"] = "square"
    width: Annotated[StrictInt, Field(ge=1, le=MAX_BOARD_SIDE)]
    """Cells in every row."""
    height: Annotated[StrictInt, Field(ge=1, le=MAX_BOARD_SIDE)]
    """Number of rows."""
    rows: Rows
    """Cell names row by row, top row first, each row left to right."""
    areas: Areas = Field(default_factory=dict)
    """Named sets of cells: ``goal:0``/``goal:1`` are each side's goals, ``dead`` cells unusable."""

    @property
    def cells(self) -> tuple[str, ...]:
        """Every cell name in row order: the order of :attr:`Position.board`."""
        return cells_of(self.rows)

    @model_validator(mode="after")
    def _check_shape(self) -> Self:
        """The rows must form a ``width`` × ``height`` rectangle."""
        if len(self.rows) != self.height:
            rows = len(self.rows)
            raise ValueError(
                f"a square board of height {self.height} has that many rows, not {rows}"
            )
        if any(len(row) != self.width for row in self.rows):
            raise ValueError(
                f"every row of a square board of width {self.width} has {self.width} cells"
            )
        check_cells(self.rows, self.areas)
        return self


class HexGeometry(WireModel):
    """A hexagonal board with ``n`` cells along each edge.

    Its ``2n - 1`` rows hold ``n, n + 1, …, 2n - 1, …, n + 1, n`` cells; draw each row
    centred, so a cell touches two cells of the row above and two of the row below.
    """

    kind: Literal["hex"] = "hex"
    n: Annotated[StrictInt, Field(ge=2, le=MAX_BOARD_SIDE // 2)]
    """Cells along each edge of the hexagon."""
    rows: Rows
    """Cell names row by row, top row first, each row left to right."""
    areas: Areas = Field(default_factory=dict)
    """Named sets of cells: ``goal:0``/``goal:1`` are each side's goals, ``dead`` cells unusable."""

    @property
    def cells(self) -> tuple[str, ...]:
        """Every cell name in row order: the order of :attr:`Position.board`."""
        return cells_of(self.rows)

    @model_validator(mode="after")
    def _check_shape(self) -> Self:
        """The rows must grow from ``n`` to ``2n - 1`` cells and shrink back."""
        expected = hex_row_lengths(self.n)
        if tuple(len(row) for row in self.rows) != expected:
            raise ValueError(f"a hex board with n={self.n} has rows of {list(expected)} cells")
        check_cells(self.rows, self.areas)
        return self


def hex_row_lengths(n: int) -> tuple[int, ...]:
    """How many cells each row of a hex board with ``n`` cells a side holds, top first."""
    growing = tuple(range(n, 2 * n))
    return growing + growing[-2::-1]


Geometry = Annotated[SquareGeometry | HexGeometry | BoardGeometry, Field(discriminator="kind")]
"""A board's shape: ``board`` (any board, every cell placed: protocol version 3 on), or
for older clients ``square`` or ``hex``."""


Colour = Annotated[StrictStr, Field(pattern=r"^#[0-9a-f]{6}$")]
"""A display colour: ``#`` and six lower-case hexadecimal digits (``#c62828``)."""


class NotationHint(WireModel):
    """How to write a move, for people and for generic clients' help screens."""

    summary: Sentence
    """One sentence, such as "a square ``23`` to add a chip, ``23-45`` to step one"."""
    examples: Annotated[tuple[MoveText, ...], Field(max_length=8)] = ()
    """A few moves in the canonical notation."""


class GameDescriptor(WireModel):
    """Everything a client needs to show a game it has never heard of."""

    name: GameName
    """Registry name, such as ``network``."""
    options: GameOptions = Field(default_factory=dict)
    """The options that, with the name, recreate the game (``{"rules": "cs61b"}``)."""
    title: Title
    """Name for people, including the options that matter (``Lines of Action 8×8``)."""
    sides: tuple[Title, Title]
    """The names of side 0 (who moves first) and side 1."""
    geometry: Geometry
    """The board's shape, cell names and special areas."""
    notation: NotationHint
    """How moves are written."""
    colours: tuple[Colour, Colour] | None = None
    """Each side's piece colour as the game declares it (protocol version 6 on); without
    it a client chooses, from the side's name where it names a colour."""

    @property
    def cells(self) -> tuple[str, ...]:
        """Every cell name in the order of :attr:`Position.board`."""
        return self.geometry.cells


class Position(WireModel):
    """One position: the engine's encoding, plus the board spelt out for generic clients."""

    encoding: Annotated[StrictStr, Field(min_length=1, max_length=MAX_ENCODING_LENGTH)]
    """The engine's one-line encoding of the position (``Game.encode``); opaque to clients."""
    board: Annotated[tuple[Owner, ...], Field(min_length=1, max_length=MAX_CELLS)]
    """The side owning each cell (0, 1, or ``null`` when empty), in geometry order."""
    to_move: Side
    """The side whose turn it is (once the game is over: the side that would move next)."""
    ply: Ply
    """How many moves have been played to reach this position."""

    def owner(self, descriptor: GameDescriptor, cell: str) -> Owner:
        """Who owns ``cell`` (by name) on the board ``descriptor`` describes."""
        return self.board[descriptor.cells.index(cell)]
