"""A restarted terminal client gets its name and its seat back: it saved its guest token.

Ada starts a Network game against Gus (a plain connection) in one run of the client,
quits in the middle, and starts the client again against the same server: she is ada
again, not ada-2, her game opens by itself, and she plays on. Without the saved token
the name is still held by her seat, and the client can only come back as ada-2.
"""

from __future__ import annotations

import asyncio
import stat
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestServer
from textual.pilot import Pilot
from textual.widgets import Input

from gamut_client.connection import Connection
from gamut_client.identities import IdentityFile
from gamut_client.link import Backoff
from gamut_client.tui.app import GamutApp
from gamut_client.tui.game_screen import GameScreen
from gamut_protocol import AcceptSeek, Move, MoveMade, RoomSnapshot, Seek
from tests.client.tui_pilot import SIZE, WAIT, game_screen, room_of, until
from tests.server.live import live_server, server_config

pytestmark = [pytest.mark.timeout(90), pytest.mark.slow]


@pytest_asyncio.fixture
async def server(tmp_path: Path) -> AsyncIterator[TestServer]:
    async with live_server(server_config(tmp_path)) as running:
        yield running


def ada(url: str, identities: IdentityFile | None) -> GamutApp:
    """A run of the terminal client as ada, keeping her token in ``identities``."""
    quick = Backoff(initial=0.05, maximum=0.2, jitter=0.0)
    return GamutApp(url, "ada", backoff=quick, identities=identities)


async def type_move(pilot: Pilot[int], app: GamutApp, move: str) -> None:
    """Type ``move`` in the game screen's move field and press Enter, as a person would."""
    screen = game_screen(app)
    await until(pilot, lambda: screen.query("#move-input"), "the move field")
    field = screen.query_one("#move-input", Input)
    field.focus()
    await until(pilot, lambda: app.focused is field, "the move field's focus")
    field.value = move
    await pilot.press("enter")


async def next_move(gus: Connection, ply: int) -> MoveMade:
    """The ``move_made`` of ``ply`` as Gus receives it."""

    async def wait() -> MoveMade:
        while True:
            message = await gus.receive()
            if isinstance(message, MoveMade) and message.ply == ply:
                return message

    return await asyncio.wait_for(wait(), WAIT)


async def test_a_restarted_client_takes_its_seat_back_and_plays_on(
    server: TestServer, tmp_path: Path
) -> None:
    url = str(server.make_url("/ws"))
    saved = IdentityFile(tmp_path / "config" / "gamut" / "identities.json")
    gus = await Connection.open(url, "gus", heartbeat=None)
    try:
        first = ada(url, saved)
        async with first.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: first.session.link.up, "the welcome")
            first.send(Seek(game="network", side=0))
            await until(pilot, lambda: first.session.lobby.my_seeks(), "ada's seek")
            seek_id = first.session.lobby.my_seeks()[0].seek_id
            started = await gus.request(AcceptSeek(seek_id=seek_id))
            assert isinstance(started, RoomSnapshot)
            await until(pilot, lambda: isinstance(first.screen, GameScreen), "the game")
            await type_move(pilot, first, "01")
            assert (await next_move(gus, 0)).move == "01"
            await gus.send(Move(room_id=started.room_id, move="10", ply=1))
            await until(pilot, lambda: room_of(first).position.ply == 2, "gus's answer")
        assert first.connection is not None
        assert saved.token(url, "ada") == first.connection.welcome.token
        assert stat.S_IMODE(saved.path.stat().st_mode) == 0o600

        again = ada(url, IdentityFile(saved.path))
        async with again.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(again.screen, GameScreen), "the game again")
            assert again.session.name == "ada"
            room = room_of(again)
            assert (room.room_id, room.your_side, room.position.ply) == (started.room_id, 0, 2)
            await type_move(pilot, again, "72")
            played = await next_move(gus, 2)
            assert (played.side, played.move) == (0, "72")
            await until(pilot, lambda: room.position.ply == 3, "ada's move shown")

        forgetful = ada(url, None)
        async with forgetful.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: forgetful.session.link.up, "the welcome")
            assert forgetful.session.name == "ada-2"
            assert not forgetful.session.rooms
    finally:
        await gus.close()
