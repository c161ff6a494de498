"""The board widget: draws a :class:`~gamut_client.tui.board_picture.BoardPicture` and
passes the keys on.

The arrows move the cursor (letters are no keys of the board: typed, they start a
move in the game's notation), Enter or Space chooses the cell under it, Esc puts a
picked-up piece back, and a click chooses the clicked cell. What a
choice means is decided by :class:`~gamut_client.tui.board_cursor.BoardCursor`;
the widget only posts :class:`BoardWidget.Pressed` and :class:`BoardWidget.Moved`.
"""

from __future__ import annotations

from typing import ClassVar, Final

from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from gamut_client.tui.board_cursor import BoardCursor
from gamut_client.tui.board_layout import Direction
from gamut_client.tui.board_picture import BoardPicture, Segment

SIDE_STYLES: Final = (Style(color="#ffd75f", bold=True), Style(color="#5fd7ff", bold=True))
"""Side 0's and side 1's pieces, for a game that declares no colours."""

SideStyles = tuple[Style, Style]
"""Side 0's and side 1's pieces."""


def side_styles(colours: tuple[str, str] | None) -> SideStyles:
    """The sides' pieces in the colours the game declares, else :data:`SIDE_STYLES`."""
    if colours is None:
        return SIDE_STYLES
    return (Style(color=colours[0], bold=True), Style(color=colours[1], bold=True))


EMPTY_STYLE: Final = Style(color="#808080")
"""An empty cell's dot."""

LABEL_STYLE: Final = Style(color="#8a8a8a")
"""Coordinates."""

BACKGROUNDS: Final = (
    ("line", Style(bgcolor="#875f00", bold=True)),
    ("selected", Style(bgcolor="#005f00")),
    ("target", Style(bgcolor="#008700")),
    ("preview", Style(bgcolor="#3a3a3a")),
    ("last", Style(bgcolor="#444400")),
    ("goal:0", Style(bgcolor="#303018")),
    ("goal:1", Style(bgcolor="#183030")),
    ("dead", Style(bgcolor="#121212")),
)
"""Background by tag, the first that applies winning."""

CURSOR_STYLE: Final = Style(reverse=True, bold=True)
"""The cell under the cursor."""


def area_style(area: str) -> Style:
    """The shade of ``area`` (for the legend), plain if it has none."""
    return next((style for tag, style in BACKGROUNDS if tag == area), Style())


def segment_style(segment: Segment, sides: SideStyles = SIDE_STYLES) -> Style:
    """How to draw one segment of the picture, the pieces in ``sides``' styles."""
    tags = segment.tags
    if "label" in tags:
        return LABEL_STYLE
    if segment.cell is None:
        return Style()
    style = EMPTY_STYLE
    for side, side_style in enumerate(sides):
        if f"side:{side}" in tags:
            style = side_style
    background = next((bg for tag, bg in BACKGROUNDS if tag in tags), None)
    if background is not None:
        style += background
    if "cursor" in tags:
        style += CURSOR_STYLE
    return style


def picture_text(picture: BoardPicture, sides: SideStyles = SIDE_STYLES) -> Text:
    """The picture as styled text, the pieces in ``sides``' styles."""
    text = Text(no_wrap=True, overflow="crop")
    for number, line in enumerate(picture.lines):
        if number:
            text.append("\n")
        for segment in line:
            text.append(segment.text, segment_style(segment, sides))
    return text


class BoardWidget(Widget, can_focus=True):
    """A board on screen, with a keyboard cursor."""

    DEFAULT_CSS = """
    BoardWidget {
        width: auto;
        height: auto;
        padding: 0 1;
    }
    BoardWidget:focus {
        background: $boost;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move('up')", "Up", show=False),
        Binding("down", "move('down')", "Down", show=False),
        Binding("left", "move('left')", "Left", show=False),
        Binding("right", "move('right')", "Right", show=False),
        Binding("enter,space", "press", "Choose cell"),
        Binding("escape", "cancel", "Put back", show=False),
    ]

    class Moved(Message):
        """The cursor moved."""

        def __init__(self, cell: str) -> None:
            super().__init__()
            self.cell = cell
            """The cell under the cursor now."""

    class Pressed(Message):
        """Enter (or a click) on the cursor's cell."""

    class Cancelled(Message):
        """Esc put a picked-up piece back."""

    def __init__(self, cursor: BoardCursor, *, id: str | None = None) -> None:
        """A board whose keys drive ``cursor``."""
        super().__init__(id=id)
        self.cursor = cursor
        """The cursor and the piece picked up."""
        self.picture: BoardPicture | None = None
        """What is drawn now."""
        self.sides: SideStyles = SIDE_STYLES
        """How each side's pieces look."""

    def show(self, picture: BoardPicture) -> None:
        """Draw ``picture`` from now on."""
        resized = self.picture is None or (
            (picture.width, len(picture.lines)) != (self.picture.width, len(self.picture.lines))
        )
        self.picture = picture
        self.refresh(layout=resized)

    def render(self) -> Text:
        """The picture as styled text."""
        return picture_text(self.picture, self.sides) if self.picture is not None else Text("")

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """As wide as the picture."""
        return self.picture.width if self.picture is not None else 0

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As tall as the picture."""
        return len(self.picture.lines) if self.picture is not None else 0

    def action_move(self, direction: Direction) -> None:
        """Move the cursor."""
        self.post_message(self.Moved(self.cursor.move(direction)))

    def action_press(self) -> None:
        """Choose the cell under the cursor."""
        self.post_message(self.Pressed())

    def action_cancel(self) -> None:
        """Put back the picked-up piece, or let Esc go to the screen."""
        if not self.cursor.cancel():
            raise SkipAction()
        self.post_message(self.Cancelled())

    def on_click(self, event: events.Click) -> None:
        """A click chooses the clicked cell."""
        if self.picture is None:
            return
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cell = self.picture.cell_at(offset.x, offset.y)
        if cell is not None:
            self.cursor.point(cell)
            self.post_message(self.Moved(cell))
            self.post_message(self.Pressed())
