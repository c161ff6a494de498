"""The keyboard's hold on a board: the cursor, the piece picked up, and what to highlight.

:class:`BoardCursor` is the board widget's whole behaviour without the widget: the
arrows move the cursor (:meth:`~BoardCursor.move`), Enter asks
:func:`~gamut_client.tui.moves.choose` what to do on the cursor's cell
(:meth:`~BoardCursor.press`), Esc puts a picked-up piece back, and
:meth:`~BoardCursor.marks` says what the picture should point out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamut_client.tui.board_layout import BoardLayout, Direction
from gamut_client.tui.board_picture import Marks
from gamut_client.tui.moves import Choice, MoveIndex, choose


@dataclass
class BoardCursor:
    """The cursor on one board and the piece picked up, if any."""

    layout: BoardLayout
    """The board."""
    cell: str = ""
    """The cell under the cursor (the board's centre to start with)."""
    selected: str | None = None
    """The piece picked up, waiting for its target."""
    index: MoveIndex = field(default_factory=MoveIndex)
    """The legal moves this client may choose from now (none while it may not move)."""

    def __post_init__(self) -> None:
        if not self.cell:
            self.cell = self.layout.centre()

    def move(self, direction: Direction) -> str:
        """Move the cursor one step; returns the cell it is on."""
        self.cell = self.layout.step(self.cell, direction)
        return self.cell

    def point(self, cell: str) -> None:
        """Put the cursor on ``cell`` (a mouse click)."""
        if cell in self.layout.places:
            self.cell = cell

    def press(self) -> Choice:
        """Enter on the cursor's cell: what to play or pick up, or why nothing happens."""
        if self.index.empty:
            return Choice(message="no move to choose now")
        choice = choose(self.index, self.cell, self.selected)
        self.selected = choice.selected
        return choice

    def cancel(self) -> bool:
        """Put the picked-up piece back; whether there was one."""
        had = self.selected is not None
        self.selected = None
        return had

    def offer(self, index: MoveIndex) -> None:
        """New legal moves (after any message): drop a pick that is no longer possible."""
        self.index = index
        if self.selected is not None and self.selected not in index.steps:
            self.selected = None

    def marks(self, last_move: tuple[str, ...], line: frozenset[str]) -> Marks:
        """What to point out: the cursor, the pick and its targets, or the cursor's targets."""
        if self.selected is not None:
            targets, preview = self.index.targets(self.selected), frozenset[str]()
        else:
            targets, preview = frozenset(), self.index.targets(self.cell)
        return Marks(
            cursor=self.cell,
            selected=self.selected,
            targets=targets,
            preview=preview,
            last_move=last_move,
            line=line,
        )
