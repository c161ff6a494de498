"""The lobby screen: the games being played, the open seeks, who is about, and lobby chat.

Enter on a room watches it (or goes back to one's own game there), Enter on a seek
accepts it (or cancels one's own), ``ctrl+n`` opens the new-game form and ``ctrl+g``
the same form set for a game against the AI. A pane lists the tournaments running
and coming, read from the server every 15 s. No letter is a command: a line typed
while a table has the focus goes to the chat line, which ``ctrl+l`` also reaches, and
Esc leaves it for the tables. The widget with the focus has a bright border.
"""

from __future__ import annotations

import contextlib
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static

from gamut_client.tui.chat_commands import chat_text, is_command, parse_command
from gamut_client.tui.focus import FOCUS_BINDINGS, typed_character
from gamut_client.tui.host import Host
from gamut_client.tui.lobby_model import (
    ROOM_COLUMNS,
    SEEK_COLUMNS,
    people_lines,
    room_row,
    seek_row,
    tournament_lines,
)
from gamut_client.tui.panels import ChatPane
from gamut_client.tui.seek_screen import SeekScreen
from gamut_client.tui.session import Update
from gamut_client.tui.table_rows import sync_rows
from gamut_protocol import AcceptSeek, CancelSeek, Chat, Join, Seek

TOURNAMENTS_EVERY_S = 15.0
"""How often the tournaments pane is read again."""


class LobbyScreen(Screen[None]):
    """Where a session starts, and where every game screen returns to."""

    DEFAULT_CSS = """
    LobbyScreen #status { height: 1; background: $primary-darken-3; padding: 0 1; }
    LobbyScreen #status.down { background: $error; }
    LobbyScreen #tables { width: 1fr; }
    LobbyScreen #side { width: 34; }
    LobbyScreen .caption { padding: 1 1 0 1; text-style: bold; }
    LobbyScreen DataTable { height: 1fr; }
    LobbyScreen #people { height: auto; padding: 0 1; border: round $primary-darken-2; }
    LobbyScreen #tournaments { height: auto; max-height: 14; padding: 0 1; }
    LobbyScreen #tournaments { border: round $primary-darken-2; }
    LobbyScreen #notice { color: $warning; padding: 0 1; min-height: 1; }
    LobbyScreen DataTable { border: round $panel; }
    LobbyScreen DataTable:focus { border: round $accent; }
    LobbyScreen #chat:focus-within { border: round $accent; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "new_game", "New game", priority=True),
        Binding("ctrl+g", "play_ai", "Play the AI", priority=True),
        Binding("ctrl+l", "chat", "Chat", priority=True),
        Binding("escape", "tables", "Tables", show=False),
        *FOCUS_BINDINGS,
    ]

    def __init__(self, host: Host, server: str) -> None:
        """The lobby of ``server``, as the host's session knows it."""
        super().__init__()
        self.host = host
        """The application."""
        self.server = server
        """The server's URL, for the status line."""
        self._shown: tuple[str, bool, str] | None = None
        self._pending = False

    def compose(self) -> ComposeResult:
        """Status line, the two tables, people and chat, key footer."""
        yield Static(id="status")
        with Horizontal():
            with Vertical(id="tables"):
                yield Static("Games being played · Enter watches", classes="caption")
                yield DataTable(id="rooms", cursor_type="row", zebra_stripes=True)
                yield Static("Open seeks and challenges · Enter accepts", classes="caption")
                yield DataTable(id="seeks", cursor_type="row", zebra_stripes=True)
                yield Static(id="notice")
            with Vertical(id="side"):
                yield Static(id="people")
                yield Static(id="tournaments")
                yield ChatPane("Lobby chat", id="chat")
        yield Footer()

    def on_mount(self) -> None:
        """Set up the tables and draw."""
        self.query_one("#rooms", DataTable).add_columns(*ROOM_COLUMNS)
        self.query_one("#seeks", DataTable).add_columns(*SEEK_COLUMNS)
        self.refresh_view(Update(lobby=True, link=True))
        self._list_tournaments()
        self.set_interval(TOURNAMENTS_EVERY_S, self._list_tournaments)

    def on_screen_resume(self) -> None:
        """Back from a game: redraw, without the line about the request that led there."""
        self._settled()
        self.refresh_view(Update(lobby=True, link=True))

    def _list_tournaments(self) -> None:
        """Read the server's tournaments in a thread, then show them."""
        self.run_worker(self._read_tournaments, thread=True, exclusive=True, group="tournaments")

    def _read_tournaments(self) -> None:
        from gamut_client.http_api import ApiError, call, http_base

        try:
            found = call(http_base(self.server), "GET", "/api/tournaments")
        except ApiError:
            found = None
        lines = tournament_lines(found if isinstance(found, dict) else None)
        with contextlib.suppress(RuntimeError):  # the application closed meanwhile
            self.app.call_from_thread(self._show_tournaments, lines)

    def _show_tournaments(self, lines: list[str]) -> None:
        self.query_one("#tournaments", Static).update(Text("\n".join(lines)))

    def refresh_view(self, update: Update) -> None:
        """Redraw what ``update`` changed."""
        if update.link or update.lobby:
            self._show_status()
        if update.lobby:
            self._settled()
            self._show_tables()
            lobby = self.host.session.lobby
            chat = self.query_one(ChatPane)
            chat.show(lobby.chat, lobby.chat_epoch, lobby.chat_total, lobby.blocked)
        if update.notice:
            self.say(update.notice)

    def say(self, text: str, *, pending: bool = False) -> None:
        """Show ``text`` under the tables; a ``pending`` line (a request on its way) goes
        once the lobby shows the answer."""
        self._pending = pending
        self.query_one("#notice", Static).update(text)

    def _settled(self) -> None:
        """Clear the line of a request the lobby now answers."""
        if self._pending:
            self.say("")

    def _show_status(self) -> None:
        """The top line and the online pane, when they changed."""
        session = self.host.session
        line = f"Gamut lobby · {self.server} · {session.link.text}"
        shown = (line, session.link.up, "\n".join(people_lines(session.lobby)))
        if shown == self._shown:
            return
        self._shown = shown
        status = self.query_one("#status", Static)
        status.update(line)
        status.set_class(not session.link.up, "down")
        self.query_one("#people", Static).update(Text(shown[2]))

    def _show_tables(self) -> None:
        """Both tables from the lobby model."""
        lobby = self.host.session.lobby
        rows = ((room_id, room_row(room)) for room_id, room in lobby.rooms.items())
        sync_rows(self.query_one("#rooms", DataTable), rows)
        seeks = ((seek_id, seek_row(seek, lobby.me)) for seek_id, seek in lobby.seeks.items())
        sync_rows(self.query_one("#seeks", DataTable), seeks)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a room watches it; Enter on a seek accepts or cancels it."""
        key = event.row_key.value
        if key is None:
            return
        if event.data_table.id == "rooms":
            self.open_room(key)
        else:
            self.take_seek(key)

    def open_room(self, room_id: str) -> None:
        """Show a room: one's own game again, or watch someone else's."""
        session = self.host.session
        if room_id in session.rooms:
            self.host.show_room(room_id)
            return
        room = session.lobby.rooms.get(room_id)
        seated = room is not None and any(seat.name == session.name for seat in room.players)
        session.watch(room_id)
        self.host.send(Join(room_id=room_id, role="player" if seated else "spectator"))
        self.say(f"joining room {room_id}…", pending=True)

    def take_seek(self, seek_id: str) -> None:
        """Accept someone's seek, or cancel one's own."""
        seek = self.host.session.lobby.seeks.get(seek_id)
        if seek is None:
            return
        if seek.author == self.host.session.name:
            self.host.send(CancelSeek(seek_id=seek_id))
            self.say(f"cancelling your seek {seek_id}…", pending=True)
        else:
            self.host.send(AcceptSeek(seek_id=seek_id))
            self.say(f"accepting {seek.author}'s {seek.title}…", pending=True)

    def focus_for_key(self, event: events.Key) -> None:
        """Before ``event`` is routed: a character typed on a table moves the focus to the
        chat line, which then takes it (and the keys after it); no letter is a command."""
        if typed_character(event) is not None and isinstance(self.focused, DataTable):
            self.set_focus(self.query_one(ChatPane).query_one(Input))

    def action_chat(self) -> None:
        """Put the focus on the chat line."""
        self.set_focus(self.query_one(ChatPane).query_one(Input))

    def action_tables(self) -> None:
        """Leave the chat line for the tables."""
        self.set_focus(self.query_one("#rooms", DataTable))

    def action_new_game(self) -> None:
        """Open the new-game form."""
        self._ask(SeekScreen(self.host.session.lobby))

    def action_play_ai(self) -> None:
        """Open the new-game form set for the AI."""
        self._ask(SeekScreen(self.host.session.lobby, opponent="ai"))

    def _ask(self, form: SeekScreen) -> None:
        """Show ``form``; send the seek it returns."""

        def done(seek: Seek | None) -> None:
            if seek is not None:
                self.host.send(seek)
                self.say(f"seeking {seek.game}…", pending=True)

        self.app.push_screen(form, done)

    def on_chat_pane_said(self, event: ChatPane.Said) -> None:
        """A line for the lobby chat, or a command (``/block NAME``…)."""
        if not is_command(event.text):
            self.host.send(Chat(text=chat_text(event.text)))
            return
        command = parse_command(event.text)
        if isinstance(command, str):
            self.say(command)
        else:
            self.host.send(command)
