"""The new-game form: game, options, time control, opponent, side.

It offers the games and options the server listed (``game_list``), and returns
the ``seek`` to send, or ``None`` when cancelled. ``ctrl+s`` or the Create button
creates the game (Enter in a text field only moves on to the next field); Esc
cancels. :func:`~gamut_client.tui.seek_form.build_seek` checks the values.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static

from gamut_client.tui.lobby_model import LobbyModel
from gamut_client.tui.seek_form import TIME_PRESETS, FormError, OpponentKind, SeekForm, build_seek
from gamut_engine import GAMES
from gamut_protocol import OptionInfo, Seek, Side
from gamut_protocol.common import MAX_AI_LEVEL

OPPONENTS: tuple[tuple[str, OpponentKind], ...] = (
    ("anyone (an open seek)", "anyone"),
    ("a named player (a challenge)", "player"),
    ("the server's AI", "ai"),
)
"""The opponent choices."""

SIDES: tuple[tuple[str, int], ...] = (("either (by lot)", -1), ("first", 0), ("second", 1))
"""The side choices (-1 for either)."""

RATED: tuple[tuple[str, int], ...] = (("no: a casual game", 0), ("yes: it counts for ratings", 1))
"""Whether the game is rated, said in words rather than by a box's look."""


class SeekScreen(ModalScreen[Seek | None]):
    """The form; dismissed with the seek to send, or ``None``."""

    DEFAULT_CSS = """
    SeekScreen { align: center middle; }
    SeekScreen > VerticalScroll {
        width: 76; height: auto; max-height: 95%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    SeekScreen #options { height: auto; }
    SeekScreen .row { height: 1; margin: 1 0 0 0; }
    SeekScreen .row Label { width: 16; }
    SeekScreen .row Select, SeekScreen .row Input { width: 1fr; }
    SeekScreen Button { margin: 1 0 0 1; }
    SeekScreen #error { color: $error; min-height: 1; }
    SeekScreen #buttons { height: auto; align-horizontal: right; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "create", "Create", priority=True),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, lobby: LobbyModel, *, opponent: OpponentKind = "anyone") -> None:
        """A form offering ``lobby``'s games, its opponent preset to ``opponent``."""
        super().__init__()
        self.lobby = lobby
        """Where the game list comes from."""
        self.opponent = opponent
        """The opponent chosen to start with."""
        self._options_of: str | None = None
        self._rebuilding = asyncio.Lock()

    def _games(self) -> list[tuple[str, str]]:
        """The games offered: the server's list, or the engine's until it arrives."""
        if self.lobby.games:
            return [(info.title, info.name) for info in self.lobby.games]
        return [(name, name) for name in GAMES]

    def compose(self) -> ComposeResult:
        """Every field, the error line and the buttons."""
        games = self._games()
        with VerticalScroll():
            yield Static("[b]New game[/b]  (ctrl+s creates, Esc cancels)")
            yield _row(
                "Game", Select(games, value=games[0][1], allow_blank=False, compact=True, id="game")
            )
            with Vertical(id="options"):
                yield from self._option_rows(games[0][1])
            times = [(label, key) for key, (label, _) in TIME_PRESETS.items()]
            yield _row(
                "Time", Select(times, value="untimed", allow_blank=False, compact=True, id="time")
            )
            yield _row(
                "Opponent",
                Select(
                    OPPONENTS, value=self.opponent, allow_blank=False, compact=True, id="opponent"
                ),
            )
            yield _row(
                "Player", Input(placeholder="name, for a challenge", compact=True, id="player")
            )
            levels = [(f"level {level}", level) for level in range(1, MAX_AI_LEVEL + 1)]
            yield _row(
                "AI level", Select(levels, value=3, allow_blank=False, compact=True, id="level")
            )
            yield _row(
                "Your side", Select(SIDES, value=-1, allow_blank=False, compact=True, id="side")
            )
            yield _row("Rated", Select(RATED, value=0, allow_blank=False, compact=True, id="rated"))
            yield Static(id="error")
            with Horizontal(id="buttons"):
                yield Button("Create", variant="primary", id="create")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        """Focus the game field."""
        self.query_one("#game", Select).focus()

    async def on_select_changed(self, event: Select.Changed) -> None:
        """Another game: show its options instead."""
        if event.select.id != "game" or not isinstance(event.value, str):
            return
        async with self._rebuilding:
            if event.value == self._options_of:
                return
            box = self.query_one("#options", Vertical)
            await box.remove_children()
            await box.mount_all(self._option_rows(event.value))

    def _option_rows(self, game: str) -> list[Horizontal]:
        """A field for each of ``game``'s options, noting whose they are."""
        self._options_of = game
        info = self.lobby.game(game)
        return [_option_row(option) for option in info.options] if info is not None else []

    def _value(self, select_id: str) -> Any:
        """The value of the select ``select_id``."""
        return self.query_one(f"#{select_id}", Select).value

    def form(self) -> SeekForm:
        """The form's values as typed."""
        options: dict[str, str] = {}
        for field in self.query(".option"):
            name = (field.id or "").removeprefix("option-")
            if isinstance(field, Input):
                options[name] = field.value
            elif isinstance(field, Select) and not field.is_blank():
                options[name] = str(field.value)
        side = int(self._value("side"))
        return SeekForm(
            game=str(self._value("game")),
            options=options,
            time=str(self._value("time")),
            opponent=cast(OpponentKind, self._value("opponent")),
            player=self.query_one("#player", Input).value,
            level=int(self._value("level")),
            side=None if side < 0 else cast(Side, side),
            rated=bool(self._value("rated")),
        )

    def action_create(self) -> None:
        """Check the form and close with its seek, or say what is wrong."""
        form = self.form()
        try:
            seek = build_seek(form, self.lobby.game(form.game))
        except FormError as error:
            self.query_one("#error", Static).update(str(error))
            return
        self.dismiss(seek)

    def action_cancel(self) -> None:
        """Close without a game."""
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a text field moves on to the next field (never creates the game)."""
        event.stop()
        self.focus_next()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Create or cancel."""
        if event.button.id == "create":
            self.action_create()
        else:
            self.action_cancel()


def _row(label: str, field: Widget) -> Horizontal:
    """A labelled field."""
    return Horizontal(Label(label), field, classes="row")


def _option_row(option: OptionInfo) -> Horizontal:
    """A field for one game option: a choice list, or a text field holding the default."""
    field: Widget
    field_id = f"option-{option.name}"
    if option.choices:
        choices = [(str(choice), str(choice)) for choice in option.choices]
        field = Select(
            choices,
            value=str(option.default),
            allow_blank=False,
            compact=True,
            id=field_id,
            classes="option",
        )
    else:
        field = Input(value=str(option.default), compact=True, id=field_id, classes="option")
    field.tooltip = option.help
    return _row(option.name, field)
