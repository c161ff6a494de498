"""Two people meet in the lobby: the terminal client against another player on a real server.

Fay uses the terminal client (driven by textual's pilot); Gus is another person on a
plain connection. They chat in the lobby, Fay opens and cancels a seek, Gus
challenges her to a timed game she accepts from the seek table, and they agree a
draw after turning one down. The client's clock is moved by hand, so the local
countdown is checked without waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from aiohttp.test_utils import TestServer
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from gamut_client.connection import Connection
from gamut_client.link import Disconnected, Reconnected
from gamut_client.tui.app import GamutApp
from gamut_client.tui.board_widget import BoardWidget
from gamut_client.tui.clock import format_clock
from gamut_client.tui.game_screen import GameScreen
from gamut_client.tui.lobby_screen import LobbyScreen
from gamut_client.tui.seek_screen import SeekScreen
from gamut_protocol import (
    AcceptDraw,
    Chat,
    ChatLine,
    DrawDeclined,
    DrawOffered,
    Move,
    NamedOpponent,
    OfferDraw,
    PerMove,
    Seek,
    SeekCreated,
    SeekRemoved,
    ServerMessage,
)
from tests.client.relay import Relay
from tests.client.tui_pilot import (
    SIZE,
    FakeClock,
    client,
    game_screen,
    log_lines,
    room_of,
    text_of,
    until,
)

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


class Person:
    """Another player on a plain connection, keeping everything the server tells them."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.seen: list[ServerMessage] = []
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for item in self.connection:
            if not isinstance(item, Disconnected | Reconnected):
                self.seen.append(item)

    def saw(self, kind: type[Any], **fields: object) -> Any:
        """The last message of ``kind`` with ``fields`` seen so far, or ``None``."""
        for message in reversed(self.seen):
            if isinstance(message, kind) and all(
                getattr(message, key) == value for key, value in fields.items()
            ):
                return message
        return None

    async def close(self) -> None:
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader
        await self.connection.close()


def seek_table(app: GamutApp) -> DataTable[str]:
    assert isinstance(app.screen, LobbyScreen)
    return app.screen.query_one("#seeks", DataTable)


async def enter_on_seek(pilot: Pilot[int], app: GamutApp, seek_id: str) -> None:
    """Put the seek table's cursor on ``seek_id`` and press Enter, as a person would."""
    table = seek_table(app)
    table.focus()
    table.move_cursor(row=table.get_row_index(seek_id))
    await pilot.press("enter")


async def test_two_people_chat_seek_challenge_and_agree_a_draw(
    relay: Relay, server: TestServer
) -> None:
    clock = FakeClock()
    app = client(relay, "fay", clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.session.link.up, "the welcome")
        gus = Person(await Connection.open(str(server.make_url("/ws")), "gus"))
        try:
            lobby = app.session.lobby

            # Lobby chat, both ways.
            await gus.connection.send(Chat(text="hello fay"))
            await until(pilot, lambda: "gus: hello fay" in log_lines(app.screen), "gus's line")
            assert isinstance(app.screen, LobbyScreen)
            app.screen.query_one(".chat-input", Input).value = "hi gus"
            app.screen.query_one(".chat-input", Input).focus()
            await pilot.press("enter")
            await until(pilot, lambda: gus.saw(ChatLine, author="fay", text="hi gus"), "fay's line")

            # Fay opens a seek with the form's defaults, sees it as hers, and cancels it.
            await until(pilot, lambda: lobby.games, "the game list")
            await pilot.press("escape")  # out of the chat line, back to the tables
            await pilot.press("ctrl+n")
            await until(pilot, lambda: isinstance(app.screen, SeekScreen), "the new-game form")
            await pilot.press("ctrl+s")
            await until(pilot, lambda: lobby.my_seeks(), "fay's seek")
            mine = lobby.my_seeks()[0]
            await until(pilot, lambda: mine.seek_id in seek_table(app).rows, "its row")
            assert gus.saw(SeekCreated) is not None
            assert seek_table(app).get_row(mine.seek_id)[0] == "fay (you)"
            await enter_on_seek(pilot, app, mine.seek_id)
            await until(pilot, lambda: not lobby.my_seeks(), "the seek cancelled")
            await until(pilot, lambda: gus.saw(SeekRemoved, reason="cancelled"), "gus told of it")

            # Gus challenges Fay to Connect Five at a minute a move; she accepts with Enter.
            challenge = Seek(
                game="connect5",
                opponent=NamedOpponent(name="fay"),
                time_control=PerMove(move_ms=60_000),
                side=0,
            )
            await gus.connection.send(challenge)
            await until(pilot, lambda: any(s.author == "gus" for s in lobby.seeks.values()), "it")
            theirs = next(s for s in lobby.seeks.values() if s.author == "gus")
            await until(pilot, lambda: theirs.seek_id in seek_table(app).rows, "its row")
            assert seek_table(app).get_row(theirs.seek_id)[3] == "you"
            await enter_on_seek(pilot, app, theirs.seek_id)
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            room = room_of(app)
            assert (room.your_side, room.players[0].name) == (1, "gus")

            # Gus's clock runs; the client counts it down between the server's readings.
            assert room.clock is not None
            assert room.clock.running == 0
            before = format_clock(room.clock.remaining_ms(0, clock.now))
            await until(pilot, lambda: before in text_of(app.screen, "#players"), "gus's clock")
            clock.now += 2.0
            after = format_clock(room.clock.remaining_ms(0, clock.now))
            assert after != before
            await until(pilot, lambda: after in text_of(app.screen, "#players"), "the countdown")

            # Gus plays; the board and the turn follow.
            await gus.connection.send(Move(room_id=room.room_id, move="h8", ply=0))
            await until(pilot, lambda: room.position.ply == 1, "gus's move")
            board = game_screen(app).query_one(BoardWidget)
            assert board.picture is not None
            assert board.picture.segment_of("h8").text == " X "
            assert text_of(app.screen, "#headline") == "Your move (O)"

            # Gus offers a draw; Fay turns it down, then offers one that Gus accepts.
            await gus.connection.send(OfferDraw(room_id=room.room_id))
            prompt = "gus offers a draw: ctrl+o accepts, ctrl+n declines"
            await until(pilot, lambda: text_of(app.screen, "#notice") == prompt, "the offer")
            await pilot.press("ctrl+n")
            await until(pilot, lambda: gus.saw(DrawDeclined, side=1), "the refusal")
            await pilot.press("ctrl+o")
            await until(pilot, lambda: gus.saw(DrawOffered, side=1), "fay's offer")
            await gus.connection.send(AcceptDraw(room_id=room.room_id))
            await until(pilot, lambda: not room.running, "the end of the game")
            assert room.result is not None
            assert room.result.reason == "agreement"
            assert text_of(app.screen, "#headline").startswith("Game over: ")
        finally:
            await gus.close()


async def test_a_taken_name_gets_a_number(relay: Relay, server: TestServer) -> None:
    hal = await Connection.open(str(server.make_url("/ws")), "hal")
    try:
        app = client(relay, "hal")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.session.link.up, "the welcome")
            assert app.session.name == "hal-2"
            assert text_of(app.screen, "#status").endswith("connected as hal-2")
            told = "hal is taken on this server: you play as hal-2"
            await until(pilot, lambda: text_of(app.screen, "#notice") == told, "the notice")
    finally:
        await hal.close()


async def test_an_unreachable_server_is_retried_and_said_so(relay: Relay) -> None:
    relay.refusing = True
    app = client(relay, "ivy")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "retrying in" in text_of(app.screen, "#status"), "the retry")
        assert app.screen.query_one("#status").has_class("down")
        relay.refusing = False
        await until(pilot, lambda: app.session.link.up, "the connection at last")
        assert text_of(app.screen, "#status").endswith("connected as ivy")
