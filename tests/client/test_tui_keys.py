"""The terminal client's keys and focus, driven by textual's pilot against a real server.

What a newcomer types goes where they meant it to: characters typed on the board are
a typed move (never the cursor's cell), letters typed on the lobby's tables are a chat
line (never a command), ``ctrl+l`` and ``ctrl+b`` reach the chat and move fields, Esc
goes back to the board, a spectator's footer offers no player's keys, long chat lines
wrap, the clocks stand still while the link is down, and a request's line goes once
the lobby answers it.
"""

from __future__ import annotations

from typing import Any

import pytest
from aiohttp.test_utils import TestServer
from textual import events
from textual.app import App
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Input, RichLog, Select

from gamut_client.connection import Connection
from gamut_client.tui.board_widget import BoardWidget
from gamut_client.tui.game_screen import GameScreen
from gamut_client.tui.lobby_screen import LobbyScreen
from gamut_client.tui.panels import ChatPane
from gamut_client.tui.seek_screen import SeekScreen
from gamut_protocol import AcceptSeek, NamedOpponent, PerMove, Seek, SeekCreated
from tests.client.relay import Relay
from tests.client.tui_pilot import (
    SIZE,
    client,
    game_screen,
    log_lines,
    room_of,
    start_ai_game,
    text_of,
    until,
)

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


def has_focus(screen: Screen[Any], widget: Widget) -> bool:
    """Whether ``widget`` has the focus on ``screen``."""
    return screen.focused is widget


async def test_digits_typed_on_the_board_are_the_move_played(relay: Relay) -> None:
    app = client(relay, "tia")
    async with app.run_test(size=SIZE) as pilot:
        room = await start_ai_game(pilot, app, "network")
        screen = game_screen(app)
        board = screen.query_one(BoardWidget)
        assert has_focus(screen, board)
        assert screen.board_cursor.cell == "34"
        await pilot.press("2", "3")
        field = screen.query_one("#move-input", Input)
        assert has_focus(screen, field)
        assert field.value == "23"
        await pilot.press("enter")
        assert has_focus(screen, board)  # once sent, the arrows and Enter work again
        await until(pilot, lambda: room.position.ply == 2, "the AI's answer")
        assert room.moves[0].move == "23"
        await pilot.press("left")
        assert screen.board_cursor.cell == "24"

        # Esc goes from the move field back to the board (not to the lobby); ctrl+l
        # reaches the chat line and ctrl+b the move field from anywhere.
        await pilot.press("ctrl+b")
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)
        assert has_focus(screen, board)
        await pilot.press("ctrl+l")
        chat = screen.query_one(ChatPane).query_one(Input)
        assert has_focus(screen, chat)
        await pilot.press("ctrl+b")
        assert has_focus(screen, field)
        await pilot.press("escape", "escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")


def type_ahead(app: App[int], *keys: str) -> None:
    """Queue ``keys`` for ``app`` at once, as the terminal does with keys typed before the
    app has taken the first (a fast typist, a busy machine)."""
    characters = {"enter": "\r", "space": " "}
    for key in keys:
        app.post_message(events.Key(key, characters.get(key, key if len(key) == 1 else None)))


async def test_keys_typed_right_after_ctrl_l_reach_the_chat_line(relay: Relay) -> None:
    app = client(relay, "kim")
    async with app.run_test(size=SIZE) as pilot:
        room = await start_ai_game(pilot, app, "network")
        screen = game_screen(app)
        type_ahead(app, "ctrl+l", *"good", "space", *"luck", "enter")
        await until(pilot, lambda: [entry.text for entry in room.chat] == ["good luck"], "it")
        assert screen.query_one("#move-input", Input).value == ""
        assert room.position.ply == 0
        # Digits typed on the board ahead of the app are the move, every one of them.
        await pilot.press("escape")
        type_ahead(app, *"23", "enter")
        await until(pilot, lambda: room.position.ply == 2, "the move and the AI's answer")
        assert room.moves[0].move == "23"


async def test_letters_typed_on_the_lobby_tables_start_a_chat_line(relay: Relay) -> None:
    app = client(relay, "una")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.session.link.up, "the welcome")
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        screen.query_one("#rooms", DataTable).focus()
        await pilot.press(*"and now", "enter")
        await until(pilot, lambda: "una: and now" in log_lines(screen), "the chat line")
        assert app.screen is screen  # neither ``a`` nor ``n`` opened a form
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(app.screen, SeekScreen), "the new-game form")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the lobby again")
        await pilot.press("ctrl+l")
        assert has_focus(screen, screen.query_one(ChatPane).query_one(Input))
        # A line typed on a table with its Enter, all before the app took the first key.
        await pilot.press("escape")
        type_ahead(app, *"hi", "enter")
        await until(pilot, lambda: "una: hi" in log_lines(screen), "the second chat line")


async def test_enter_in_the_new_game_forms_player_field_moves_on(relay: Relay) -> None:
    app = client(relay, "ivo")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.session.lobby.games, "the game list")
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(app.screen, SeekScreen), "the new-game form")
        form = app.screen
        assert isinstance(form, SeekScreen)
        form.query_one("#opponent", Select).value = "player"
        player = form.query_one("#player", Input)
        player.focus()
        await pilot.press(*"bob", "enter")
        assert form.is_current  # not created: the person may still set the rest
        assert not has_focus(form, player)
        assert form.form().player == "bob"
        rated = form.query_one("#rated", Select)
        assert (rated.value, form.form().rated) == (0, False)
        rated.value = 1
        assert form.form().rated


async def test_a_long_chat_line_wraps_in_the_lobbys_narrow_pane(relay: Relay) -> None:
    app = client(relay, "vic")
    words = " ".join(f"word{number}" for number in range(20))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.session.link.up, "the welcome")
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        pane = screen.query_one(ChatPane)
        pane.query_one(Input).value = words
        pane.query_one(Input).focus()
        await pilot.press("enter")
        await until(pilot, lambda: any("word19" in line for line in log_lines(screen)), "it")
        log = pane.query_one(RichLog)
        lines = [line for line in log_lines(screen) if line]
        assert len(lines) > 2
        assert max(len(line) for line in lines) <= log.scrollable_content_region.width
        assert " ".join(" ".join(lines).split()).endswith(f"vic: {words}")


async def test_a_spectators_footer_has_no_players_keys(relay: Relay, server: TestServer) -> None:
    url = str(server.make_url("/ws"))
    white = await Connection.open(url, "whitey", kind="bot", lobby=False)
    black = await Connection.open(url, "blacky", kind="bot", lobby=False)
    try:
        created = await white.request(Seek(game="network", opponent=NamedOpponent(name="blacky")))
        assert isinstance(created, SeekCreated)
        await black.request(AcceptSeek(seek_id=created.seek.seek_id))
        app = client(relay, "wes")
        async with app.run_test(size=SIZE) as pilot:
            lobby = app.session.lobby
            await until(pilot, lambda: lobby.rooms, "the bots' room")
            room_id = next(iter(lobby.rooms))
            assert isinstance(app.screen, LobbyScreen)
            app.screen.open_room(room_id)
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            assert room_of(app).your_side is None
            keys = set(app.screen.active_bindings)
            assert not keys & {"ctrl+r", "ctrl+o", "ctrl+n", "ctrl+t", "ctrl+b"}
            assert "ctrl+l" in keys
    finally:
        await white.close()
        await black.close()


async def test_a_timed_challenge_accepted_then_the_link_lost_and_back(
    relay: Relay, server: TestServer
) -> None:
    url = str(server.make_url("/ws"))
    opponent = await Connection.open(url, "xan", kind="bot", lobby=False)
    app = client(relay, "yas")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.session.link.up, "the welcome")
            challenge = Seek(
                game="network",
                opponent=NamedOpponent(name="yas"),
                time_control=PerMove(move_ms=60_000),
                side=0,
            )
            await opponent.send(challenge)
            lobby = app.session.lobby
            await until(pilot, lambda: lobby.seeks, "the challenge")
            lobby_screen = app.screen
            assert isinstance(lobby_screen, LobbyScreen)
            lobby_screen.take_seek(next(iter(lobby.seeks)))
            assert text_of(lobby_screen, "#notice").startswith("accepting xan's ")
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            screen = game_screen(app)
            room = room_of(app)
            await until(pilot, lambda: screen.query("#players"), "the players panel")
            # A clock that has not run yet has nothing to pause: wait for the first reading.
            await until(pilot, lambda: room.clock and room.clock.running is not None, "a clock")

            # The clocks stand still while the link is down, then take the server's figures.
            relay.refusing = True
            relay.cut()
            await until(pilot, lambda: "paused" in text_of(screen, "#players"), "paused clocks")
            relay.refusing = False
            await until(pilot, lambda: app.session.link.up, "the link back up")
            await until(pilot, lambda: not room.clock_paused, "the server's figures")
            assert "paused" not in text_of(screen, "#players")

            # Back in the lobby, the line about accepting is gone: it was answered.
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is lobby_screen, "the lobby")
            assert text_of(lobby_screen, "#notice") == ""
    finally:
        await opponent.close()
