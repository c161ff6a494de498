"""A ``gamut bot`` process killed in the middle of a game is started again and finishes it:
the first process saved its guest token, the second says ``hello`` with it, gets the
name back and takes its seat back."""

from __future__ import annotations

import asyncio
import os
import signal
import stat
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestServer

from gamut_client.connection import Connection
from gamut_client.identities import IdentityFile
from gamut_protocol import (
    GameOver,
    Move,
    MoveMade,
    NamedOpponent,
    PlayerConnected,
    Presence,
    RoomSnapshot,
    Seek,
    ServerMessage,
    Untimed,
)
from tests.server.live import live_server, server_config

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]

WAIT = 30.0
"""Seconds to wait for the bot or the server before failing."""


@pytest_asyncio.fixture
async def server(tmp_path: Path, server_db: str) -> AsyncIterator[TestServer]:
    async with live_server(server_config(tmp_path, db=server_db)) as running:
        yield running


async def start_bot(url: str, config: Path) -> asyncio.subprocess.Process:
    """``gamut bot`` as ``botty`` for one game, with its configuration in ``config``."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gamut_client.commands.bot",
        "--server",
        url,
        "--name",
        "botty",
        "--games",
        "1",
        "random",
        env={**os.environ, "XDG_CONFIG_HOME": str(config)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def until_message(gus: Connection, kind: type[ServerMessage], **fields: object) -> object:
    """The next message of ``kind`` (with ``fields``) that Gus receives."""

    async def wait() -> object:
        async for message in gus:
            matches = all(getattr(message, key, None) == value for key, value in fields.items())
            if isinstance(message, kind) and matches:
                return message
        raise AssertionError("the connection ended")

    return await asyncio.wait_for(wait(), WAIT)


async def play_to_the_end(gus: Connection, room_id: str) -> GameOver:
    """Gus plays the first legal move whenever it is his turn, until the game is over."""

    async def play() -> GameOver:
        async for message in gus:
            if isinstance(message, GameOver) and message.room_id == room_id:
                return message
            if (
                isinstance(message, MoveMade)
                and message.position.to_move == 0
                and message.legal_moves
            ):
                ply = message.position.ply
                await gus.send(Move(room_id=room_id, move=message.legal_moves[0], ply=ply))
        raise AssertionError("the connection ended")

    return await asyncio.wait_for(play(), WAIT)


async def test_a_killed_bot_started_again_finishes_its_game(
    server: TestServer, tmp_path: Path
) -> None:
    url = str(server.make_url("/ws"))
    config = tmp_path / "config"
    gus = await Connection.open(url, "gus", heartbeat=None)
    first = await start_bot(url, config)
    second: asyncio.subprocess.Process | None = None
    try:
        await until_message(gus, Presence, left=False)
        challenge = Seek(
            game="connect5",
            options={"size": 5},
            time_control=Untimed(),
            opponent=NamedOpponent(name="botty"),
            side=0,
        )
        await gus.send(challenge)
        snapshot = await until_message(gus, RoomSnapshot)
        assert isinstance(snapshot, RoomSnapshot)
        room_id = snapshot.room_id
        await gus.send(Move(room_id=room_id, move=snapshot.legal_moves[0], ply=0))
        answer = await until_message(gus, MoveMade, ply=1)
        assert isinstance(answer, MoveMade)

        first.send_signal(signal.SIGKILL)
        await first.wait()
        saved = config / "gamut" / "identities.json"
        assert stat.S_IMODE(saved.stat().st_mode) == 0o600
        assert IdentityFile(saved).token(url, "botty")

        second = await start_bot(url, config)
        await until_message(gus, PlayerConnected, room_id=room_id, side=1)
        await gus.send(Move(room_id=room_id, move=answer.legal_moves[0], ply=2))
        over = await play_to_the_end(gus, room_id)
        out, err = await asyncio.wait_for(second.communicate(), WAIT)
        assert second.returncode == 0, err.decode()
        assert out.decode().startswith(f"{room_id} Connect Five 5×5: ")
        assert over.result.reason in ("five", "board_full")
    finally:
        for process in (first, second):
            if process is not None and process.returncode is None:
                process.kill()
                await process.wait()
        await gus.close()


async def test_a_refused_saved_token_is_explained(server: TestServer, tmp_path: Path) -> None:
    url = str(server.make_url("/ws"))
    config = tmp_path / "config"
    IdentityFile(config / "gamut" / "identities.json").remember(url, "botty", "not-its-token")
    holder = await Connection.open(url, "botty", kind="bot", heartbeat=None)
    try:
        bot = await start_bot(url, config)
        _, err = await asyncio.wait_for(bot.communicate(), WAIT)
        assert bot.returncode == 1
        assert "bad_token" in err.decode()
        assert "--forget drops it" in err.decode()
    finally:
        await holder.close()
