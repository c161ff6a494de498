"""Helpers for tests against a live server: a server on a loopback port, and WebSocket clients.

The server runs in the test's own event loop (aiohttp's ``TestServer``) with a SQLite
file in the test's temporary folder; clients talk to it over real sockets.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

import aiohttp
from aiohttp.test_utils import TestServer
from aiohttp.web_runner import BaseRunner

from gamut_server import keys
from gamut_server.app import build_app
from gamut_server.config import ServerConfig
from gamut_server.edge.guard import GuardedRunner

WHITE_WINS: Final = ("01", "10", "72", "20", "61", "40", "34", "50", "31", "12", "64")
"""A Network game (cs61b rules) that White, side 0, wins with the network
01-31-34-64-61-72 on its eleventh move."""

WAIT: Final = 10.0
"""Seconds a test waits for a message before failing (never reached when all is well)."""

Message = dict[str, Any]


def server_config(tmp_path: Path, **changes: Any) -> ServerConfig:
    """Settings for a test server: loopback, any port, a fresh SQLite file, no AI."""
    base = ServerConfig(host="127.0.0.1", port=0, db=str(tmp_path / "gamut.sqlite3"), ai_workers=0)
    return replace(base, **changes)


class GuardedTestServer(TestServer):
    """aiohttp's test server, run as ``gamut serve`` runs the application: each socket
    counted as it is accepted, and closed if its request's head is late."""

    async def _make_runner(self, **kwargs: Any) -> BaseRunner:
        head_timeout = self.app[keys.CONFIG].head_timeout
        return GuardedRunner(self.app, head_timeout, **kwargs)


@asynccontextmanager
async def live_server(config: ServerConfig) -> AsyncIterator[TestServer]:
    """A running server with ``config``, closed on exit."""
    server = GuardedTestServer(build_app(config), host="127.0.0.1", port=config.port or None)
    await server.start_server()
    try:
        yield server
    finally:
        await server.close()


class Client:
    """One WebSocket client that records everything it receives."""

    def __init__(self, session: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse):
        self.session = session
        self.ws = ws
        self.received: list[Message] = []
        """Every message received so far, in order."""
        self._unread: list[Message] = []
        self.name: str | None = None
        self.token: str | None = None

    @classmethod
    async def connect(cls, url: str) -> Client:
        """Open a WebSocket to ``url``."""
        session = aiohttp.ClientSession()
        ws = await session.ws_connect(url, heartbeat=None, max_msg_size=8 * 1024 * 1024)
        return cls(session, ws)

    async def send(self, message: Message) -> None:
        """Send one message as JSON text."""
        await self.ws.send_str(json.dumps(message))

    async def send_raw(self, text: str) -> None:
        """Send a frame as it is."""
        await self.ws.send_str(text)

    async def next(self, timeout: float = WAIT) -> Message:
        """The next message not read yet."""
        if self._unread:
            return self._unread.pop(0)
        frame = await self.ws.receive(timeout=timeout)
        if frame.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"socket closed: {frame.type!r} {frame.data!r} {frame.extra!r}")
        message: Message = json.loads(frame.data)
        self.received.append(message)
        return message

    async def expect(self, *types: str, timeout: float = WAIT, **fields: Any) -> Message:
        """The next message of one of ``types`` (with ``fields``), keeping others for later."""
        skipped: list[Message] = []
        try:
            while True:
                message = await self.next(timeout)
                if message["type"] in types and _matches(message, fields):
                    return message
                skipped.append(message)
        finally:
            self._unread[:0] = skipped

    async def hello(self, name: str, **fields: Any) -> Message:
        """Say hello as ``name`` and return the welcome."""
        await self.send({"type": "hello", "name": name, **fields})
        welcome = await self.expect("welcome", "error")
        assert welcome["type"] == "welcome", welcome
        self.name = name
        self.token = welcome.get("token")
        return welcome

    def drain_unread(self) -> list[Message]:
        """Messages received but not read, emptied."""
        unread, self._unread = self._unread, []
        return unread

    async def close(self) -> None:
        """Close the socket and the session."""
        await self.ws.close()
        await self.session.close()


def _matches(message: Message, fields: dict[str, Any]) -> bool:
    """Whether ``message`` has every field of ``fields`` with that value."""
    return all(message.get(key) == value for key, value in fields.items())


async def connect(server: TestServer, name: str | None = None, **hello: Any) -> Client:
    """A client of ``server``, welcomed as ``name`` if given."""
    client = await Client.connect(str(server.make_url("/ws")))
    if name is not None:
        await client.hello(name, **hello)
    return client


async def read_until_closed(client: Client, timeout: float = WAIT) -> list[Message]:
    """Every message ``client`` receives until the server closes its socket."""
    messages = client.drain_unread()
    while True:
        try:
            messages.append(await client.next(timeout))
        except ConnectionError:
            return messages


async def close_all(clients: Iterable[Client]) -> None:
    """Close every client."""
    await asyncio.gather(*(client.close() for client in clients), return_exceptions=True)


async def start_game(
    seeker: Client, accepter: Client, game: str = "network", **terms: Any
) -> tuple[str, Message, Message]:
    """``seeker`` seeks a game as side 0 and ``accepter`` takes it: the room id and both
    players' snapshots."""
    await seeker.send({"type": "seek", "id": "s", "game": game, "side": 0, **terms})
    created = await seeker.expect("seek_created")
    seek_id = created["seek"]["seek_id"]
    await accepter.send({"type": "accept_seek", "id": "a", "seek_id": seek_id})
    theirs = await accepter.expect("room_snapshot")
    mine = await seeker.expect("room_snapshot")
    assert mine["room_id"] == theirs["room_id"]
    return mine["room_id"], mine, theirs


async def play(client: Client, room_id: str, move: str, ply: int) -> Message:
    """Play ``move`` at ``ply`` and return its ``move_made``."""
    await client.send({"type": "move", "room_id": room_id, "move": move, "ply": ply})
    return await client.expect("move_made", room_id=room_id, ply=ply)
