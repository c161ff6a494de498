"""A yes-or-no question in a small window: ``y`` or Enter says yes, ``n`` or Esc says no."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class ConfirmScreen(ModalScreen[bool]):
    """Ask ``question``; dismissed with ``True`` for yes."""

    DEFAULT_CSS = """
    ConfirmScreen {
        align: center middle;
    }
    ConfirmScreen > Vertical {
        width: 44;
        height: auto;
        border: thick $warning;
        background: $surface;
        padding: 1 2;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        """A window asking ``question``."""
        super().__init__()
        self.question = question
        """What is asked."""

    def compose(self) -> ComposeResult:
        """The question and the keys that answer it."""
        with Vertical():
            yield Static(self.question)
            yield Static("[b]y[/b] yes   [b]n[/b] no")

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)
