"""A tiny scripted Gamut server on a real socket, for testing the client's connection.

It welcomes every ``hello`` (or refuses it, when told to), answers ``ping`` (unless
told not to), replays logged room events on ``resume``, records every client message,
and lets a test push messages, log events without sending them, and cut the link.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from gamut_protocol import (
    ClientMessage,
    ErrorMessage,
    Pong,
    Resume,
    ServerMessage,
    Welcome,
    dump,
    parse_client_message,
)


class FakeServer:
    """A scripted server: see the module docstring."""

    def __init__(self) -> None:
        self.answer_pings = True
        """Whether ``ping`` messages get their ``pong``."""
        self.refusals: list[ErrorMessage] = []
        """Errors to answer the next ``hello`` messages with, first first."""
        self.welcome_rooms: tuple[str, ...] = ()
        """The rooms each ``welcome`` lists."""
        self.received: asyncio.Queue[ClientMessage] = asyncio.Queue()
        """Every client message except ``ping``, in order."""
        self.hellos: list[Any] = []
        """Every ``hello`` received."""
        self.events: dict[str, list[ServerMessage]] = {}
        """Each room's sequenced events, for replaying on ``resume``."""
        self.connections: list[ServerConnection] = []
        """Every connection accepted, the latest last."""
        self.connected = asyncio.Event()
        """Set whenever a ``hello`` has been welcomed; clear it to wait for the next."""
        self._server: Server | None = None

    @property
    def url(self) -> str:
        """The server's WebSocket URL."""
        assert self._server is not None
        port = next(iter(self._server.sockets)).getsockname()[1]
        return f"ws://127.0.0.1:{port}/ws"

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[FakeServer]:
        """Serve on a free loopback port for the ``async with`` block."""
        async with serve(self._handle, "127.0.0.1", 0) as server:
            self._server = server
            yield self

    async def send(self, message: ServerMessage) -> None:
        """Send ``message`` on the latest connection."""
        await self.connections[-1].send(dump(message))

    def log(self, message: ServerMessage) -> None:
        """Log a room event for replay without sending it (as if the link had lost it)."""
        room_id = getattr(message, "room_id", None)
        assert room_id is not None
        self.events.setdefault(room_id, []).append(message)

    async def publish(self, message: ServerMessage) -> None:
        """Log a room event and send it."""
        self.log(message)
        await self.send(message)

    def drop(self) -> None:
        """Cut the latest connection's TCP link without a closing handshake."""
        self.connected.clear()
        self.connections[-1].transport.abort()

    async def expect(self, kind: type[Any]) -> Any:
        """The next client message of type ``kind``, skipping others."""
        while True:
            message = await self.received.get()
            if isinstance(message, kind):
                return message

    async def _handle(self, ws: ServerConnection) -> None:
        """Serve one connection until it closes."""
        self.connections.append(ws)
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                await self._answer(ws, parse_client_message(raw))

    async def _answer(self, ws: ServerConnection, message: ClientMessage) -> None:
        """Answer one client message the way a server would."""
        if message.type == "ping":
            if self.answer_pings:
                await ws.send(dump(Pong(reply_to=message.id)))
            return
        self.received.put_nowait(message)
        if message.type == "hello":
            await self._welcome(ws, message)
        elif isinstance(message, Resume):
            for event in self.events.get(message.room_id, []):
                if getattr(event, "seq", 0) > message.after_seq:
                    await ws.send(dump(event))

    async def _welcome(self, ws: ServerConnection, hello: Any) -> None:
        """Welcome a ``hello``, or refuse it with the next refusal."""
        self.hellos.append(hello)
        if self.refusals:
            refusal = self.refusals.pop(0).model_copy(update={"reply_to": hello.id})
            await ws.send(dump(refusal))
            await ws.close()
            return
        welcome = Welcome(
            reply_to=hello.id,
            protocol=1,
            server="fake 0",
            name=hello.name,
            kind=hello.kind,
            token=f"g-{len(self.hellos)}",
            rooms=self.welcome_rooms,
        )
        await ws.send(dump(welcome))
        self.connected.set()
