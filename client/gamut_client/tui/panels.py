"""The game screen's side panels: players with their clocks, the move list, and chat.

Each panel is told what to show by its screen (``show``); none reads the network
or decides anything about the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Input, RichLog, Static

from gamut_client.tui.board_widget import side_styles
from gamut_client.tui.clock import LOW_TIME_MS, format_clock
from gamut_client.tui.room_model import RoomModel
from gamut_protocol import ChatEntry, Side
from gamut_protocol.common import MAX_CHAT_LENGTH

SPINNER: Final = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
"""The frames of the sign that the AI is thinking."""


def player_line(room: RoomModel, side: Side, glyph: str, now: float) -> Text:
    """One player: glyph, name, kind, side, presence, clock, and a mark when to move."""
    seat = room.players[side]
    kind = {"ai": " [AI]", "bot": " [bot]"}.get(seat.kind, "")
    you = " (you)" if side == room.your_side else ""
    line = Text()
    line.append(f" {glyph} ", side_styles(room.descriptor.colours)[side])
    line.append(f"{seat.name}{kind}{you} · {room.descriptor.sides[side]}")
    if not seat.connected:
        line.append(" · away", "bold red")
    remaining = room.clock_ms(side, now)
    if remaining is not None:
        low = remaining < LOW_TIME_MS
        running = room.clock is not None and room.clock.running == side
        style = "bold red" if low else ("bold" if running else "dim")
        line.append(f"  {format_clock(remaining):>8}", style)
        if room.clock_paused:
            line.append(" paused", "bold yellow")
    if room.running and room.position.to_move == side:
        line.append("  ◀ to move", "bold")
        if seat.kind == "ai":
            line.append(f" · thinking {SPINNER[int(now * 8) % len(SPINNER)]}", "bold")
    return line


class PlayersPanel(Static):
    """Both players and their clocks, redrawn as the clocks tick."""

    DEFAULT_CSS = """
    PlayersPanel {
        height: auto;
        border: round $primary-darken-2;
        padding: 0 1;
    }
    """

    def show(self, room: RoomModel, glyphs: tuple[str, str], now: float) -> None:
        """Show ``room``'s players and their clocks at ``now``."""
        lines = Text("\n").join(player_line(room, side, glyphs[side], now) for side in (0, 1))
        self.update(lines)


class MoveList(VerticalScroll, can_focus=False):
    """The moves played, in numbered pairs, scrolled to the latest (Tab passes it by)."""

    DEFAULT_CSS = """
    MoveList {
        height: 1fr;
        border: round $primary-darken-2;
        border-title-align: left;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        """An empty list; its text exists from the start, so it can be shown before it mounts."""
        super().__init__(id=id)
        self._rows = Static(id="move-rows")

    def compose(self) -> ComposeResult:
        """One text holding every row."""
        yield self._rows

    def on_mount(self) -> None:
        """Title the border."""
        self.border_title = "Moves"

    def show(self, rows: Sequence[str]) -> None:
        """Show ``rows`` and scroll to the last."""
        self._rows.update("\n".join(rows) or "no moves yet")
        self.scroll_end(animate=False)


MIN_CHAT_WIDTH: Final = 16
"""Columns a chat line is wrapped at while the pane's own width is not known yet."""


class ChatPane(Vertical):
    """A chat log and the line to type in."""

    DEFAULT_CSS = """
    ChatPane {
        height: 1fr;
        border: round $primary-darken-2;
        border-title-align: left;
    }
    ChatPane RichLog {
        height: 1fr;
        background: transparent;
    }
    ChatPane Input {
        height: 3;
    }
    """

    class Said(Message):
        """The player typed a chat line and pressed Enter."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text
            """The line."""

    def __init__(self, title: str = "Chat", *, id: str | None = None) -> None:
        """A chat pane titled ``title``."""
        super().__init__(id=id)
        self._title = title
        self._epoch = -1
        self._shown = 0
        self._hidden: frozenset[str] = frozenset()
        self._log = RichLog(
            wrap=True, min_width=MIN_CHAT_WIDTH, markup=False, auto_scroll=True, classes="chat-log"
        )
        """Made here, not in :meth:`compose`, so lines can be shown before the pane mounts."""
        self._log.can_focus = False

    def compose(self) -> ComposeResult:
        """The log above the input."""
        yield self._log
        yield Input(
            placeholder="say something, Enter to send", select_on_focus=False, classes="chat-input"
        )

    def on_mount(self) -> None:
        """Title the border."""
        self.border_title = self._title

    def show(
        self,
        entries: Sequence[ChatEntry],
        epoch: int,
        total: int,
        hidden: frozenset[str] = frozenset(),
    ) -> None:
        """Show the lines added since the last call (``total`` counts every line received),
        or all of ``entries`` again when ``epoch`` or ``hidden`` changed; lines of the
        authors ``hidden`` (names folded: the players blocked) are not shown."""
        log = self._log
        if epoch != self._epoch or hidden != self._hidden:
            log.clear()
            self._epoch, self._shown, self._hidden = epoch, 0, hidden
        new = min(total - self._shown, len(entries))
        for entry in entries[len(entries) - new :] if new > 0 else ():
            if entry.author.lower() in hidden:
                continue
            line = Text()
            line.append(entry.author, "bold")
            line.append(f": {entry.text}")
            log.write(line)
        self._shown = total

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Send the typed line."""
        event.stop()
        text = " ".join(event.value.split())[:MAX_CHAT_LENGTH]
        event.input.clear()
        if text:
            self.post_message(self.Said(text))
