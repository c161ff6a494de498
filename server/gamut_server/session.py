"""The ``/ws`` endpoint: one handler task per client, the only reader of its socket.

The handler reads one frame at a time, refuses what is too large, not JSON, not a
message or too frequent with a clear ``error``, and passes every good message to the
hub, waiting until it is handled (stored and queued) before reading the next: a
client's messages are handled in the order sent. Fatal errors (``too_large``,
``unsupported_version``) are answered and the connection closed.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from aiohttp import WSMsgType, web

from gamut_protocol import (
    MAX_CLIENT_MESSAGE_BYTES,
    Chat,
    ClientMessage,
    ErrorMessage,
    ProtocolError,
    parse_client_message,
)
from gamut_protocol.errors import INTERNAL_ERROR, NOT_AUTHENTICATED, RATE_LIMITED
from gamut_server import keys
from gamut_server.config import ServerConfig
from gamut_server.connection import Connection
from gamut_server.hub import Hub
from gamut_server.rooms.limits import ConnectionLimits

log = logging.getLogger(__name__)

FRAME_LIMIT: Final = 4 * MAX_CLIENT_MESSAGE_BYTES
"""Largest frame read at all. Frames above the protocol's limit and up to this one are
answered with ``too_large``; larger ones make the WebSocket layer close with 1009."""


async def websocket(request: web.Request) -> web.WebSocketResponse:
    """Serve one client until it leaves, is dropped, or the server stops."""
    config = request.app[keys.CONFIG]
    hub = request.app[keys.HUB]
    ws = web.WebSocketResponse(heartbeat=config.heartbeat, max_msg_size=FRAME_LIMIT)
    await ws.prepare(request)
    conn = Connection(
        ws, request.transport, queue_size=config.queue_size, send_timeout=config.send_timeout
    )
    conn.start()
    hub.attach(conn)
    try:
        await Reader(conn, hub, config).run(ws)
    finally:
        await hub.detach(conn)
        await conn.finish()
    return ws


class Reader:
    """Reads one client's frames and hands their messages to the hub."""

    def __init__(self, conn: Connection, hub: Hub, config: ServerConfig) -> None:
        """A reader for ``conn``, with its own rate limiters."""
        self.conn = conn
        self.hub = hub
        self.config = config
        self.limits = ConnectionLimits(_now_ms(), config.messages, config.chat)

    async def run(self, ws: web.WebSocketResponse) -> None:
        """Read until the socket closes or the connection is closed by the server."""
        loop = asyncio.get_running_loop()
        hello_by = loop.time() + self.config.hello_timeout
        while not self.conn.closed:
            wait = None if self.conn.welcomed else max(0.0, hello_by - loop.time())
            try:
                frame = await ws.receive(timeout=wait)
            except TimeoutError:
                self._no_hello()
                return
            if frame.type == WSMsgType.TEXT or frame.type == WSMsgType.BINARY:
                await self.frame(frame.data)
            else:
                return
            await self.conn.wait_drained()
            await asyncio.sleep(0)  # let other clients' frames and the writers through

    async def frame(self, data: str | bytes) -> None:
        """Handle one frame: parse it, check the rate, route it."""
        try:
            message = parse_client_message(data)
        except ProtocolError as refusal:
            self.conn.send(refusal.to_message())
            if refusal.fatal:
                self.conn.close_after_sent(refusal.message)
            return
        if not self._allowed(message):
            return
        try:
            await self.hub.receive(self.conn, message)
        except Exception:
            log.exception("handling %s from %r failed", message.type, self.conn)
            sentence = "the server failed to handle this message"
            self.conn.send(ErrorMessage.answering(message, INTERNAL_ERROR, sentence))

    def _allowed(self, message: ClientMessage) -> bool:
        """Whether ``message`` fits the rate limits; answers ``rate_limited`` if not."""
        if self.limits.allow(message.type, _now_ms()):
            return True
        sentence = "too many messages too quickly; this one was dropped"
        if isinstance(message, Chat):
            sentence = "too many chat lines too quickly; this one was dropped"
        self.conn.send(ErrorMessage.answering(message, RATE_LIMITED, sentence))
        return False

    def _no_hello(self) -> None:
        """Close a connection that never said hello."""
        self.conn.send(
            ErrorMessage(
                code=NOT_AUTHENTICATED,
                message=f"no hello within {self.config.hello_timeout:g} seconds",
                fatal=True,
            )
        )
        self.conn.close_after_sent("no hello")


def _now_ms() -> int:
    """The event loop's clock in milliseconds."""
    return int(asyncio.get_running_loop().time() * 1000)
