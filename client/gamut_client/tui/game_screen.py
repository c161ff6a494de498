"""The game screen: the board, the players and their clocks, the moves, and the room's chat.

A move is chosen on the board (cursor to a piece, Enter, cursor to a highlighted
target, Enter; a placement needs one Enter) or typed in the game's notation. It is
sent with the ply it answers; the server's ``move_made`` (or its refusal, shown
as the server's sentence) updates the screen. A character typed while the board has
the focus goes to the move field, so a typed move is never mistaken for the cursor's
cell; once the typed move is sent the board has the focus again. ``ctrl+b`` reaches the
move field and ``ctrl+l`` the chat line, Esc goes back to the board (and from the board
to the lobby). The focus moves at once (:mod:`gamut_client.tui.focus`), so keys typed
right after ``ctrl+l`` land in the chat line however busy the machine is. A player's
keys ``ctrl+r`` resign, ``ctrl+o`` offer or accept a draw, ``ctrl+n`` decline an offer
and ``ctrl+t`` offer or accept a rematch work from anywhere on the screen; a
spectator's footer shows none. In a narrow terminal the side panels narrow, then go
under the board (:mod:`gamut_client.tui.columns`).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from gamut_client.tui import game_text
from gamut_client.tui.board_cursor import BoardCursor
from gamut_client.tui.board_layout import BoardLayout
from gamut_client.tui.board_picture import draw_board, side_glyphs
from gamut_client.tui.board_widget import BoardWidget, area_style, side_styles
from gamut_client.tui.chat_commands import chat_text, is_command, parse_command
from gamut_client.tui.columns import fit_columns
from gamut_client.tui.confirm import ConfirmScreen
from gamut_client.tui.focus import FOCUS_BINDINGS, typed_character
from gamut_client.tui.host import Host
from gamut_client.tui.moves import MoveIndex, engine_game
from gamut_client.tui.panels import ChatPane, MoveList, PlayersPanel
from gamut_client.tui.room_model import RoomModel
from gamut_client.tui.session import Update
from gamut_protocol import (
    AcceptDraw,
    Chat,
    ClientMessage,
    DeclineDraw,
    DeclineRematch,
    Leave,
    Move,
    OfferDraw,
    Rematch,
    Resign,
)

CLOCK_TICK = 0.2
"""Seconds between redraws of the clocks."""

PLAYER_ACTIONS = frozenset({"resign", "draw", "decline", "rematch", "move_field"})
"""The actions only a player has (a spectator's footer leaves them out)."""


class GameScreen(Screen[None]):
    """One room: played when this client has a seat, watched otherwise."""

    DEFAULT_CSS = """
    GameScreen #status { height: 1; background: $primary-darken-3; padding: 0 1; }
    GameScreen #status.down { background: $error; }
    GameScreen #body { layout: horizontal; height: 1fr; }
    GameScreen #left {
        width: 56; padding: 0 1; overflow-x: hidden; overflow-y: auto; scrollbar-size-vertical: 1;
    }
    GameScreen #right { width: 1fr; }
    GameScreen.-stacked #body { layout: vertical; overflow-y: auto; }
    GameScreen.-stacked #left { height: auto; overflow-y: hidden; }
    GameScreen.-stacked #right { height: auto; }
    GameScreen.-stacked #moves { height: 8; }
    GameScreen.-stacked #chat { height: 14; }
    GameScreen #headline { text-style: bold; padding: 1 0 0 0; }
    GameScreen #legend { color: $text-muted; }
    GameScreen #notice { color: $warning; min-height: 1; }
    GameScreen #move-input { width: 1fr; max-width: 40; }
    GameScreen #board { border: round $panel; }
    GameScreen #board:focus { border: round $accent; }
    GameScreen #chat:focus-within { border: round $accent; }
    """

    AUTO_FOCUS = "#board"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "resign", "Resign", priority=True),
        Binding("ctrl+o", "draw", "Draw", priority=True),
        Binding("ctrl+n", "decline", "Decline", priority=True),
        Binding("ctrl+t", "rematch", "Rematch", priority=True),
        Binding("ctrl+b", "move_field", "Type a move", priority=True),
        Binding("ctrl+l", "chat", "Chat", priority=True),
        Binding("escape", "back", "Board / lobby"),
        *FOCUS_BINDINGS,
    ]

    def __init__(self, host: Host, room_id: str) -> None:
        """The screen of ``room_id``, which the host's session follows."""
        super().__init__()
        self.host = host
        """The application."""
        self.room_id = room_id
        """The room shown."""
        room = self.room
        self.board_layout = BoardLayout.from_descriptor(room.descriptor)
        self.glyphs = side_glyphs(room.descriptor.sides)
        self.board_cursor = BoardCursor(self.board_layout)
        self._engine = engine_game(room.descriptor)
        self._index = MoveIndex()
        self._index_key: tuple[str, tuple[str, ...]] | None = None
        self._seen_notice: tuple[str | None, int] | None = None
        self._blocked: frozenset[str] = frozenset()
        self._role: tuple[int | None, bool] | None = None

    @property
    def room(self) -> RoomModel:
        """The room's model."""
        return self.host.session.rooms[self.room_id]

    def compose(self) -> ComposeResult:
        """Status line, board column, side panels, key footer."""
        yield Static(id="status")
        with Container(id="body"):
            with Vertical(id="left"):
                yield Static(id="headline")
                yield BoardWidget(self.board_cursor, id="board")
                yield Static(id="notice")
                yield Input(
                    placeholder="type a move, Enter to play", select_on_focus=False, id="move-input"
                )
                yield Static(id="legend")
            with Vertical(id="right"):
                yield PlayersPanel(id="players")
                yield MoveList(id="moves")
                yield ChatPane("Room chat", id="chat")
        yield Footer()

    def on_mount(self) -> None:
        """Draw everything, fit the columns and start the clocks."""
        self._redraw()
        self._fit(self.app.size.width)
        self.set_interval(CLOCK_TICK, self._tick)

    def on_resize(self, event: events.Resize) -> None:
        """Lay the columns out again for the terminal's new width."""
        self._fit(event.size.width)

    def _fit(self, width: int) -> None:
        """Share ``width`` between the board column and the side panels, or stack them."""
        board = self.query_one(BoardWidget).picture
        columns = fit_columns(width, board.width if board is not None else 0)
        self.set_class(columns.stacked, "-stacked")
        self.query_one("#left").styles.width = "1fr" if columns.stacked else columns.left

    def refresh_view(self, update: Update) -> None:
        """Redraw after a message: everything when this room changed, else the status."""
        if self.room_id not in self.host.session.rooms:
            return
        blocks_changed = self.host.session.lobby.blocked != self._blocked
        if self.room_id in update.rooms or blocks_changed:
            self._redraw()
        elif update.link:
            self._show_status()
        if update.notice:
            self._say(update.notice)

    def _redraw(self) -> None:
        """Redraw every part from the room's model."""
        room = self.room
        self.board_cursor.offer(self._move_index(room))
        self._show_status()
        self.query_one("#headline", Static).update(room.headline())
        self._show_board()
        self.query_one(MoveList).show(room.move_rows())
        self._blocked = self.host.session.lobby.blocked
        chat = self.query_one(ChatPane)
        chat.show(room.chat, room.chat_epoch, room.chat_total, self._blocked)
        self._show_players()
        notice = game_text.offer_prompt(room) or game_text.result_text(room) or room.notice
        if (notice, room.notices) != self._seen_notice:
            self._seen_notice = (notice, room.notices)
            self._say(notice or "")
        self.query_one("#move-input", Input).display = room.your_side is not None
        if (room.your_side, room.running) != self._role:
            self._role = (room.your_side, room.running)
            self.refresh_bindings()

    def _move_index(self, room: RoomModel) -> MoveIndex:
        """The moves to choose from on the board (none unless it is this client's turn)."""
        if not room.my_turn:
            self._index_key = None
            return MoveIndex()
        key = (room.position.encoding, room.legal_moves)
        if key != self._index_key:
            self._index_key = key
            self._index = MoveIndex.build(
                room.descriptor, room.position.encoding, room.legal_moves, self._engine
            )
        return self._index

    def _show_status(self) -> None:
        """The top line, red while the link is down."""
        status = self.query_one("#status", Static)
        status.update(game_text.status_text(self.room, self.host.session.link))
        status.set_class(not self.host.session.link.up, "down")

    def _show_board(self) -> None:
        """The board with the current marks, and the legend under it."""
        room = self.room
        marks = self.board_cursor.marks(room.last_cells, room.winning_line)
        picture = draw_board(self.board_layout, room.position.board, self.glyphs, marks)
        board = self.query_one(BoardWidget)
        board.sides = side_styles(room.descriptor.colours)
        board.show(picture)
        self.query_one("#legend", Static).update(self._legend(room))

    def _legend(self, room: RoomModel) -> Text:
        """Whose pieces are which, the shaded areas, the cursor's cell and the keys."""
        legend = Text()
        for side in (0, 1):
            name = room.descriptor.sides[side]
            legend.append(self.glyphs[side], side_styles(room.descriptor.colours)[side])
            legend.append(f" {name}   " if name != self.glyphs[side] else "   ")
        legend.append(f"cursor {self.board_cursor.cell}\n")
        for area, line in game_text.area_legend(room):
            legend.append("   ", area_style(area))
            legend.append(f" {line}\n")
        legend.append(game_text.keys_hint(room, self.board_cursor.selected) + "\n")
        legend.append(f"notation: {room.descriptor.notation.summary}")
        return legend

    def _tick(self) -> None:
        """Redraw the players while a clock runs or the AI thinks."""
        if self.room_id not in self.host.session.rooms:
            return
        room = self.room
        clock = room.clock
        if (clock is not None and clock.running is not None) or room.ai_thinking:
            self._show_players()

    def _show_players(self) -> None:
        """The players and their clocks as they are now."""
        self.query_one(PlayersPanel).show(self.room, self.glyphs, self.host.now())

    def _say(self, text: str) -> None:
        """Show ``text`` on the notice line."""
        self.query_one("#notice", Static).update(text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Leave a player's actions out of a spectator's footer."""
        if action not in PLAYER_ACTIONS:
            return True
        room = self.host.session.rooms.get(self.room_id)
        return room is not None and room.your_side is not None

    def focus_for_key(self, event: events.Key) -> None:
        """Before ``event`` is routed: a character typed while the board has the focus
        moves the focus to the move field, which then takes it (and the keys after it)."""
        field = self.query_one("#move-input", Input)
        if typed_character(event) in (None, " "):
            return
        if self.focused is self.query_one(BoardWidget) and field.display:
            self.set_focus(field)

    def action_move_field(self) -> None:
        """Put the focus on the move field."""
        self.set_focus(self.query_one("#move-input", Input))

    def action_chat(self) -> None:
        """Put the focus on the chat line."""
        self.set_focus(self.query_one(ChatPane).query_one(Input))

    def action_back(self) -> None:
        """From a text field back to the board; from the board back to the lobby."""
        if isinstance(self.focused, Input):
            self.set_focus(self.query_one(BoardWidget))
        else:
            self.action_leave()

    def on_board_widget_moved(self, event: BoardWidget.Moved) -> None:
        """The cursor moved: redraw the marks."""
        self._show_board()

    def on_board_widget_cancelled(self, event: BoardWidget.Cancelled) -> None:
        """A picked-up piece was put back."""
        self._show_board()
        self._say("put back")

    def on_board_widget_pressed(self, event: BoardWidget.Pressed) -> None:
        """Enter on a cell: play, pick up, or say why not."""
        if self.room.your_side is None:
            self._say("you are watching this game")
            return
        if not self.room.my_turn:
            self._say("it is not your turn" if self.room.running else "the game is over")
            return
        choice = self.board_cursor.press()
        if choice.move is not None:
            self._play(choice.move)
        elif choice.message:
            self._say(choice.message)
        self._show_board()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A typed move."""
        if event.input.id != "move-input":
            return
        text = event.value.strip()
        event.input.clear()
        if text:
            self.board_cursor.cancel()
            self._play(text)
            self.set_focus(self.query_one(BoardWidget))

    def on_chat_pane_said(self, event: ChatPane.Said) -> None:
        """A chat line for the room, or a command (``/report NAME WHAT`` reports in it)."""
        if not is_command(event.text):
            self._send(Chat(room_id=self.room_id, text=chat_text(event.text)))
            return
        command = parse_command(event.text, self.room_id)
        if isinstance(command, str):
            self._say(command)
        else:
            self._send(command)

    def _play(self, text: str) -> None:
        """Send the move ``text`` for the current position."""
        room = self.room
        self._send(Move(room_id=self.room_id, move=text[:64], ply=room.position.ply))
        self._say(f"playing {text}…")

    def _send(self, message: ClientMessage) -> None:
        """Queue ``message`` for the server."""
        self.host.send(message)

    def action_resign(self) -> None:
        """Resign, after asking."""
        room = self.room
        if room.your_side is None or not room.running:
            self._say("there is no game of yours to resign")
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._send(Resign(room_id=self.room_id))

        self.app.push_screen(ConfirmScreen("Resign this game?"), answered)

    def action_draw(self) -> None:
        """Offer a draw, or accept the opponent's offer."""
        room = self.room
        if room.your_side is None or not room.running:
            self._say("there is no game of yours to draw")
        elif room.draw_offer == 1 - room.your_side:
            self._send(AcceptDraw(room_id=self.room_id))
        else:
            self._send(OfferDraw(room_id=self.room_id))
            self._say("draw offered")

    def action_decline(self) -> None:
        """Decline the opponent's draw or rematch offer."""
        room = self.room
        if room.your_side is None:
            return
        if room.running and room.draw_offer == 1 - room.your_side:
            self._send(DeclineDraw(room_id=self.room_id))
        elif not room.running and room.rematch_offer == 1 - room.your_side:
            self._send(DeclineRematch(room_id=self.room_id))
        else:
            self._say("there is no offer to decline")

    def action_rematch(self) -> None:
        """Offer a rematch after the game, or accept the opponent's."""
        room = self.room
        if room.your_side is None or room.running:
            self._say("a rematch is offered once your game is over")
            return
        self._send(Rematch(room_id=self.room_id))
        self._say("rematch offered")

    def action_leave(self) -> None:
        """Back to the lobby; a spectator stops following the room."""
        if self.room.your_side is None:
            self._send(Leave(room_id=self.room_id))
            self.host.session.forget(self.room_id)
        self.host.show_lobby()
