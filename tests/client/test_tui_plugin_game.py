"""The terminal client draws a board it has no code for and plays on it: Hex's rhombus.

Hex comes from the test package in ``tests/plugins``, registered in the ``gamut.games``
entry-point group; the client knows it only from the descriptor the server sends.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestServer
from textual.widgets import Static

from gamut_client.tui.board_widget import BoardWidget, side_styles
from tests.client.relay import Relay
from tests.client.tui_pilot import (
    SIZE,
    client,
    game_screen,
    pilot_server,
    relay_to,
    start_ai_game,
    until,
)

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[TestServer]:
    async with pilot_server(tmp_path_factory.mktemp("tui-hex")) as running:
        yield running


@pytest_asyncio.fixture(loop_scope="module")
async def relay(server: TestServer) -> AsyncIterator[Relay]:
    async with relay_to(server) as running:
        yield running


async def test_the_rhombus_is_drawn_and_a_stone_placed_with_the_keyboard(relay: Relay) -> None:
    app = client(relay, "hexer")
    async with app.run_test(size=SIZE) as pilot:
        room = await start_ai_game(pilot, app, "hex")
        screen = game_screen(app)
        board = screen.query_one(BoardWidget)
        assert board.picture is not None
        assert [line.rstrip() for line in board.picture.plain()] == [
            "   a   b   c   d   e",
            "1  ·   ·   ·   ·   ·  1",
            "2    ·   ·   ·   ·   ·  2",
            "3      ·   ·   ·   ·   ·  3",
            "4        ·   ·   ·   ·   ·  4",
            "5          ·   ·   ·   ·   ·  5",
            "           a   b   c   d   e",
        ]
        # From c3 in the middle, down reaches the right one of the two cells of row 4
        # that touch it, c4, and Enter places a stone there.
        assert screen.board_cursor.cell == "c3"
        await pilot.press("down", "enter")
        await until(pilot, lambda: room.position.ply >= 1, "the move")
        assert room.moves[0].move == "c4"
        assert "side:0" in board.picture.segment_of("c4").tags
        await until(pilot, lambda: room.position.ply == 2, "the AI's answer")
        assert all("last" in board.picture.segment_of(cell).tags for cell in room.last_cells)


async def test_a_stone_drops_from_any_cell_of_its_column_in_the_games_colours(
    relay: Relay,
) -> None:
    app = client(relay, "dropper")
    async with app.run_test(size=SIZE) as pilot:
        room = await start_ai_game(pilot, app, "connect4")
        screen = game_screen(app)
        board = screen.query_one(BoardWidget)
        assert room.descriptor.colours == ("#c62828", "#f2c400")
        assert board.sides == side_styles(("#c62828", "#f2c400"))
        # The cursor starts high in column d; Enter there drops the stone to d1.
        await pilot.press("up", "up")
        assert screen.board_cursor.cell[0] == "d"
        assert screen.board_cursor.cell != "d1"
        await pilot.press("enter")
        await until(pilot, lambda: room.position.ply >= 1, "the move")
        assert room.moves[0].move == "d1"
        assert board.picture is not None
        assert "side:0" in board.picture.segment_of("d1").tags


async def test_the_end_of_the_game_is_said_in_the_games_own_sentence(relay: Relay) -> None:
    app = client(relay, "joiner")
    async with app.run_test(size=SIZE) as pilot:
        # On a 2×2 rhombus, Red's b1 touches both cells of the bottom row: Red joins next.
        room = await start_ai_game(pilot, app, "hex", {"size": "2"})
        screen = game_screen(app)
        await pilot.press("b", "1", "enter")
        await until(pilot, lambda: room.position.ply == 2, "the AI's answer")
        free = next(
            cell for cell in ("a2", "b2") if room.position.owner(room.descriptor, cell) is None
        )
        await pilot.press(*free, "enter")
        await until(pilot, lambda: room.result is not None, "the end of the game")
        notice = str(screen.query_one("#notice", Static).render())
        assert "Red joins their two sides" in notice
