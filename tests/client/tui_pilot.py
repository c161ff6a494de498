"""Helpers for driving the terminal client with textual's pilot against a real server.

The server (one AI worker, short AI thinking) runs in the test module's event loop
on a loopback port; each client reaches it through a :class:`~tests.client.relay.Relay`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

from aiohttp.test_utils import TestServer
from textual.pilot import Pilot
from textual.widgets import Input, RichLog, Select, Static

from gamut_client.link import Backoff
from gamut_client.tui.app import GamutApp
from gamut_client.tui.game_screen import GameScreen
from gamut_client.tui.lobby_screen import LobbyScreen
from gamut_client.tui.room_model import RoomModel
from gamut_client.tui.seek_screen import SeekScreen
from tests.client.relay import Relay
from tests.server.live import live_server, server_config

WAIT = 30.0
"""Seconds a test waits for something before failing (never reached when all is well)."""

SIZE = (120, 40)
"""The terminal's size."""


@asynccontextmanager
async def pilot_server(folder: Path) -> AsyncIterator[TestServer]:
    """A server with one AI worker that thinks at most half a second a move."""
    config = server_config(folder, ai_workers=1, ai_max_think_s=0.5)
    async with live_server(config) as running:
        yield running


@asynccontextmanager
async def relay_to(server: TestServer) -> AsyncIterator[Relay]:
    """A relay in front of ``server``."""
    assert server.port is not None
    async with Relay(server.port).running() as running:
        yield running


class FakeClock:
    """A clock the test moves by hand, for the client's local countdown."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def client(relay: Relay, name: str, clock: Callable[[], float] | None = None) -> GamutApp:
    """A terminal client of the relayed server that reconnects quickly."""
    quick = Backoff(initial=0.05, maximum=0.2, jitter=0.0)
    url = f"ws://127.0.0.1:{relay.port}/ws"
    if clock is None:
        return GamutApp(url, name, backoff=quick)
    return GamutApp(url, name, backoff=quick, clock=clock)


async def until(
    pilot: Pilot[int], check: Callable[[], object], what: str, *, wait: float = WAIT
) -> None:
    """Let the application run until ``check()`` holds (failing after ``wait`` seconds,
    a bound never reached when all is well)."""
    deadline = asyncio.get_running_loop().time() + wait
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


def text_of(screen: object, selector: str) -> str:
    """The plain text a ``Static`` of ``screen`` shows."""
    assert isinstance(screen, GameScreen | LobbyScreen), screen
    return str(screen.query_one(selector, Static).content)


def log_lines(screen: object) -> list[str]:
    """The lines of the screen's chat log."""
    assert isinstance(screen, GameScreen | LobbyScreen), screen
    return [strip.text.rstrip() for strip in screen.query_one(RichLog).lines]


def game_screen(app: GamutApp) -> GameScreen:
    """The game screen on top."""
    assert isinstance(app.screen, GameScreen), app.screen
    return app.screen


def room_of(app: GamutApp) -> RoomModel:
    """The room of the game screen on top."""
    return app.session.rooms[game_screen(app).room_id]


async def start_ai_game(
    pilot: Pilot[int], app: GamutApp, game: str, options: dict[str, str] | None = None
) -> RoomModel:
    """From the lobby, ``ctrl+g``, pick ``game`` (with ``options`` typed in their fields),
    level 1, first side, ``ctrl+s``; the room once its screen is ready for keys."""
    await until(pilot, lambda: app.session.lobby.games, "the game list")
    await pilot.press("ctrl+g")
    await until(pilot, lambda: isinstance(app.screen, SeekScreen), "the new-game form")
    form = app.screen
    form.query_one("#game", Select).value = game
    form.query_one("#level", Select).value = 1
    form.query_one("#side", Select).value = 0
    for name, value in (options or {}).items():
        field = f"#option-{name}"
        await until(pilot, partial(form.query, field), f"the field {field}")
        form.query_one(field, Input).value = value
    await pilot.pause()
    await pilot.press("ctrl+s")
    await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
    # The screen is on top before it is mounted and gives the board the focus.
    await until(pilot, lambda: app.screen.focused is not None, "the board's focus")
    return room_of(app)
