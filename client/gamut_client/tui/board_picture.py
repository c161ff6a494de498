"""A board as lines of tagged text: what to draw, without saying how it looks.

:func:`draw_board` lays out every cell of a :class:`~gamut_client.tui.board_layout.BoardLayout`
with its owner's glyph and the tags that matter for drawing it: whose piece it is,
the areas it belongs to (goals, dead corners), and the marks of the moment (the
cursor, the selected piece, the legal targets, the last move, the winning line).
The board widget turns tags into colours; tests read the text and the tags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from gamut_client.tui.board_layout import CELL_WIDTH, BoardLayout

EMPTY_GLYPH: Final = "·"
"""An empty cell."""

DEAD_GLYPH: Final = " "
"""A cell that can never be used (Network's corners): shaded, not dotted."""

FALLBACK_GLYPHS: Final = ("●", "○")
"""The sides' pieces when their names start with the same letter."""

CURSOR: Final = "cursor"
SELECTED: Final = "selected"
TARGET: Final = "target"
PREVIEW: Final = "preview"
LAST: Final = "last"
LINE: Final = "line"
LABEL: Final = "label"


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of text on one line, with the tags saying how to draw it."""

    text: str
    """The characters."""
    tags: frozenset[str] = frozenset()
    """``cell``, ``side:0``/``side:1``/``empty``, area names, marks, or ``label``."""
    cell: str | None = None
    """The cell this segment draws, if any."""


@dataclass(frozen=True, slots=True)
class Marks:
    """What to point out on the board at this moment."""

    cursor: str | None = None
    """The cell under the keyboard cursor."""
    selected: str | None = None
    """The piece chosen to move, waiting for its target."""
    targets: frozenset[str] = frozenset()
    """Where the selected piece may go."""
    preview: frozenset[str] = frozenset()
    """Where the piece under the cursor could go, before it is selected."""
    last_move: tuple[str, ...] = ()
    """The cells the last move touched."""
    line: frozenset[str] = field(default_factory=frozenset)
    """The winning network or line, once the game is over."""

    def of(self, cell: str) -> frozenset[str]:
        """The marks on ``cell``."""
        marks = {
            CURSOR: cell == self.cursor,
            SELECTED: cell == self.selected,
            TARGET: cell in self.targets,
            PREVIEW: cell in self.preview,
            LAST: cell in self.last_move,
            LINE: cell in self.line,
        }
        return frozenset(name for name, present in marks.items() if present)


@dataclass(frozen=True)
class BoardPicture:
    """The board as lines of segments."""

    lines: tuple[tuple[Segment, ...], ...]
    """Every line, top first."""

    def plain(self) -> list[str]:
        """The lines as plain text."""
        return ["".join(segment.text for segment in line) for line in self.lines]

    def segment_of(self, cell: str) -> Segment:
        """The segment drawing ``cell``; ``KeyError`` if it is not on the board."""
        for line in self.lines:
            for segment in line:
                if segment.cell == cell:
                    return segment
        raise KeyError(cell)

    def cell_at(self, x: int, y: int) -> str | None:
        """The cell drawn at column ``x`` of line ``y``, if any (for mouse clicks)."""
        if not 0 <= y < len(self.lines):
            return None
        column = 0
        for segment in self.lines[y]:
            if column <= x < column + len(segment.text):
                return segment.cell
            column += len(segment.text)
        return None

    @property
    def width(self) -> int:
        """The longest line's length."""
        return max((len(text) for text in self.plain()), default=0)


def side_glyphs(sides: Sequence[str]) -> tuple[str, str]:
    """The glyphs of side 0's and side 1's pieces: their names' initials when they differ."""
    first, second = (name[:1].upper() for name in sides)
    if first and second and first != second and first.isalpha() and second.isalpha():
        return first, second
    return FALLBACK_GLYPHS


def draw_board(
    layout: BoardLayout, board: Sequence[int | None], glyphs: tuple[str, str], marks: Marks
) -> BoardPicture:
    """The board with ``board``'s pieces (owners, 0, 1 or ``None``, in the layout's cell
    order) and ``marks``."""
    owners = dict(zip(layout.cells, board, strict=True))
    margin = max((len(label) for label in layout.row_labels), default=0)
    rows = [
        _row_line(layout, index, owners, glyphs, marks, margin) for index in range(len(layout.rows))
    ]
    if not layout.column_labels:
        return BoardPicture(tuple(rows))
    top = _column_labels(layout.column_tops, layout.column_labels, margin)
    bottom = _column_labels(layout.column_bottoms, layout.column_labels, margin)
    return BoardPicture((top, *rows, bottom))


def _row_line(
    layout: BoardLayout,
    index: int,
    owners: dict[str, int | None],
    glyphs: tuple[str, str],
    marks: Marks,
    margin: int,
) -> tuple[Segment, ...]:
    """One line: its label, its cells at their places, and on boards with columns the
    label again."""
    label = layout.row_labels[index]
    segments = [Segment(f"{label:>{margin}} ", frozenset({LABEL}))]
    column = 0
    for name in layout.rows[index]:
        x = layout.places[name].x
        if x > column:
            segments.append(Segment(" " * (x - column)))
        segments.append(_cell(layout, name, owners[name], glyphs, marks))
        column = x + CELL_WIDTH
    if layout.column_labels:
        segments.append(Segment(f" {label}", frozenset({LABEL})))
    return tuple(segments)


def _cell(
    layout: BoardLayout, name: str, owner: int | None, glyphs: tuple[str, str], marks: Marks
) -> Segment:
    """One cell's segment: its glyph and every tag that applies."""
    areas = layout.areas_of(name)
    if owner is not None:
        glyph, whose = glyphs[owner], f"side:{owner}"
    else:
        glyph, whose = (DEAD_GLYPH if "dead" in areas else EMPTY_GLYPH), "empty"
    tags = frozenset({"cell", whose, *areas}) | marks.of(name)
    return Segment(f" {glyph} ", tags, name)


def _column_labels(
    places: Sequence[int], labels: Sequence[str], margin: int
) -> tuple[Segment, ...]:
    """A line of column labels, each centred over the cell at its screen column."""
    text = ""
    for x, label in sorted(zip(places, labels, strict=True)):
        text = f"{text:<{x}}{label[:CELL_WIDTH]:^{CELL_WIDTH}}"
    return (Segment(" " * (margin + 1)), Segment(text, frozenset({LABEL})))
