"""The terminal client driven by textual's pilot against a real Gamut server.

One server (with one AI worker) runs in this module's event loop on a loopback
port; each client reaches it through a :class:`~tests.client.relay.Relay` that
the tests slow down or cut. The client plays a human's moves against the AI
(with the keyboard and typed, then resigns and takes a rematch), moves a piece on
Crusher's hex board, watches two bots play to a network, and keeps its game
through a slow and then a broken link.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from aiohttp.test_utils import TestServer
from textual.widgets import DataTable, Input, Static

from gamut_client.connection import Connection
from gamut_client.tui.board_widget import BoardWidget
from gamut_client.tui.confirm import ConfirmScreen
from gamut_client.tui.game_screen import GameScreen
from gamut_client.tui.lobby_screen import LobbyScreen
from gamut_engine import IllegalMoveError, load_game
from gamut_protocol import AcceptSeek, GameOver, Move, MoveMade, RoomSnapshot, Seek, SeekCreated
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
from tests.client.tui_support import WHITE_WINS

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


async def test_a_human_plays_the_ai_with_the_keyboard_and_typed_moves(relay: Relay) -> None:
    app = client(relay, "ada")
    async with app.run_test(size=SIZE) as pilot:
        room = await start_ai_game(pilot, app, "network")
        screen = game_screen(app)
        assert room.your_side == 0
        assert room.my_turn
        assert room.players[1].kind == "ai"
        assert text_of(screen, "#headline") == "Your move (White)"

        # Keyboard: the cursor starts on 34; one step left to 24, Enter places a chip.
        await pilot.press("left", "enter")
        await until(pilot, lambda: room.position.ply == 2, "the AI's answer")
        board = screen.query_one(BoardWidget)
        assert board.picture is not None
        assert board.picture.segment_of("24").text == " W "
        assert room.moves[0].move == "24"
        assert text_of(screen, "#notice").startswith("ai-1 played ")

        # A typed move the rules forbid is refused with the server's sentence.
        game = load_game("network")
        with pytest.raises(IllegalMoveError) as refusal:
            game.parse_move(game.decode(room.position.encoding), "00")
        await pilot.click("#move-input")
        await pilot.press("0", "0", "enter")
        await until(pilot, lambda: text_of(screen, "#notice") == refusal.value.message, "refusal")
        assert room.position.ply == 2

        # A typed legal move is played (ctrl+b: the board had the keys again).
        assert screen.focused is screen.query_one(BoardWidget)
        legal = room.legal_moves[0]
        screen.query_one("#move-input", Input).value = legal
        await pilot.press("ctrl+b", "enter")
        await until(pilot, lambda: room.position.ply == 4, "the second answer")
        assert room.moves[2].move == legal
        assert screen.query_one("#moves").query_one(Static).content  # the move list is drawn
        assert "  1. 24" in str(screen.query_one("#move-rows", Static).content)

        # Room chat, then resigning after confirming.
        await pilot.click(".chat-input")
        await pilot.press(*"gg", "enter")
        await until(pilot, lambda: "ada: gg" in log_lines(screen), "the chat line")
        await pilot.press("ctrl+r")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        await until(pilot, lambda: not room.running, "the end of the game")
        assert room.result is not None
        assert room.result.reason == "resign"
        assert text_of(screen, "#headline").startswith("Game over: ")
        assert text_of(screen, "#notice").startswith("You lost (0-1): ")

        # A rematch, which the AI accepts at once: a new room, the sides swapped.
        await pilot.press("ctrl+t")
        await until(
            pilot,
            lambda: isinstance(app.screen, GameScreen) and app.screen.room_id != screen.room_id,
            "the rematch's game screen",
        )
        assert room_of(app).your_side == 1
        # The new room's snapshot may arrive before or after the old room's rematch_started.
        await until(
            pilot,
            lambda: room.rematch_room == game_screen(app).room_id,
            "the finished room's link to its rematch",
        )

        # Back in the lobby, the rematch is listed and the finished room is not.
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        rooms = app.screen.query_one("#rooms", DataTable)
        rematch = room.rematch_room

        def listed() -> list[str | None]:
            return [key.value for key in rooms.rows]

        await until(pilot, lambda: rematch in listed(), "the rematch in the lobby")
        assert screen.room_id not in listed()


async def test_a_piece_is_moved_on_crushers_hex_board(relay: Relay) -> None:
    app = client(relay, "hexa")
    async with app.run_test(size=SIZE) as pilot:
        room = await start_ai_game(pilot, app, "crusher")
        screen = game_screen(app)
        board = screen.query_one(BoardWidget)
        assert board.picture is not None
        assert next(line.rstrip() for line in board.picture.plain()) == "a      W   W   W"
        # From c3, up to b2 and pick it up: its four targets light up.
        await pilot.press("up", "enter")
        assert screen.board_cursor.selected == "b2"
        targets = {cell for cell in room.descriptor.cells if "target" in _tags(board, cell)}
        assert targets == {"b1", "b4", "c2", "c3"}
        # Down to c3 and Enter: b2-c3 is played.
        await pilot.press("down", "enter")
        await until(pilot, lambda: room.position.ply >= 1, "the move")
        assert room.moves[0].move == "b2-c3"
        await until(pilot, lambda: room.position.ply == 2, "the AI's answer")
        assert set(room.last_cells) <= set(room.descriptor.cells)
        assert all("last" in _tags(board, cell) for cell in room.last_cells)


def _tags(board: BoardWidget, cell: str) -> frozenset[str]:
    assert board.picture is not None
    return board.picture.segment_of(cell).tags


async def bot(
    connection: Connection, moves: tuple[str, ...], gate: Callable[[int], Awaitable[None]]
) -> None:
    """Play ``moves`` on this bot's turns, each after ``gate(ply)``, until the game ends."""
    side: int | None = None
    async for message in connection:
        if isinstance(message, RoomSnapshot):
            side = message.your_side
        if isinstance(message, GameOver):
            return
        if isinstance(message, RoomSnapshot | MoveMade):
            position = message.position
            if position.to_move == side and message.legal_moves:
                await gate(position.ply)
                move = Move(room_id=message.room_id, move=moves[position.ply], ply=position.ply)
                await connection.send(move)


async def test_a_spectator_watches_two_bots_play_to_a_network(
    relay: Relay, server: TestServer
) -> None:
    url = str(server.make_url("/ws"))
    white = await Connection.open(url, "whitebot", kind="bot", lobby=False)
    black = await Connection.open(url, "blackbot", kind="bot", lobby=False)
    go = asyncio.Event()

    async def gate(ply: int) -> None:
        if ply >= 4:
            await go.wait()

    created = await white.request(Seek(game="network", side=0))
    assert isinstance(created, SeekCreated)
    players = [
        asyncio.create_task(bot(white, WHITE_WINS, gate)),
        asyncio.create_task(bot(black, WHITE_WINS, gate)),
    ]
    await black.send(AcceptSeek(seek_id=created.seek.seek_id))
    app = client(relay, "cyd")
    try:
        async with app.run_test(size=SIZE) as pilot:
            lobby = app.session.lobby
            table = app.screen.query_one("#rooms", DataTable)

            def bots_room() -> str | None:
                """The bots' room at ply 4, once the table shows it (the lobby is redrawn
                a little after its messages arrive)."""
                for key, summary in lobby.rooms.items():
                    if summary.players[0].name == "whitebot" and summary.ply == 4:
                        return key if key in table.rows else None
                return None

            await until(pilot, bots_room, "the bots' room in the lobby at ply 4")
            room_id = bots_room()
            assert room_id is not None
            table.focus()
            table.move_cursor(row=table.get_row_index(room_id))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            room = room_of(app)
            screen = game_screen(app)
            assert room.your_side is None
            assert room.position.ply == 4
            assert "you are watching" in text_of(screen, "#status")
            assert text_of(screen, "#headline") == "whitebot (White) to move"
            go.set()
            await until(pilot, lambda: not room.running, "the end of the bots' game")
            assert room.result is not None
            assert room.result.reason == "network"
            assert text_of(screen, "#headline") == "Game over: whitebot 1-0 blackbot"
            assert text_of(screen, "#notice") == "whitebot won (1-0): White completes a network"
            board = screen.query_one(BoardWidget)
            lit = {cell for cell in room.descriptor.cells if "line" in _tags(board, cell)}
            assert lit == {"01", "31", "34", "64", "61", "72"}
            assert len(room.move_rows()) == 6
            await pilot.press("enter")
            assert text_of(screen, "#notice") == "you are watching this game"
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            assert room_id not in app.session.rooms
    finally:
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        await white.close()
        await black.close()


async def test_the_game_survives_a_slow_and_then_broken_link(relay: Relay) -> None:
    app = client(relay, "eve")
    async with app.run_test(size=SIZE) as pilot:
        room = await start_ai_game(pilot, app, "network")
        screen = game_screen(app)
        cursor = screen.board_cursor

        # Over a slow link the keys still answer at once: the cursor moves on while the
        # move is on its way.
        relay.delay = 0.3
        await pilot.press("enter")
        await pilot.press("right")
        assert cursor.cell == "44"
        assert room.position.ply == 0
        await until(pilot, lambda: room.position.ply == 2, "the AI's answer over the slow link")
        relay.delay = 0.0

        # The link breaks and stays down for a while: the screen says so.
        relay.refusing = True
        relay.cut()
        await until(pilot, lambda: not app.session.link.up, "the lost link")
        await until(pilot, lambda: "reconnecting" in text_of(screen, "#status"), "the status")
        assert screen.query_one("#status").has_class("down")

        # A move made while the link is down waits for it, and the game goes on after.
        legal = room.legal_moves[0]
        screen.query_one("#move-input", Input).value = legal
        await pilot.click("#move-input")
        await pilot.press("enter")
        relay.refusing = False
        await until(pilot, lambda: app.session.link.up, "the link back up")
        assert text_of(screen, "#status").endswith("connected as eve")
        await until(pilot, lambda: room.position.ply == 4, "the game going on")
        assert [record.move for record in room.moves][2] == legal
        assert room.running
        assert room.my_turn
