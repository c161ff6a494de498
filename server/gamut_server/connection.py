"""One client's WebSocket: a bounded outgoing queue drained by the connection's own writer.

Nothing ever awaits a client's socket on behalf of anyone else: rooms and the lobby
call :meth:`Connection.send`, which only puts the frame in the queue and returns at
once. The writer task sends the frames one by one; a client that stops reading
fills its queue (or stalls a single frame past the send timeout) and is dropped, so
it can never hold up a room. The socket is read only by the handler task in
:mod:`gamut_server.app`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from typing import Final

from aiohttp import WSCloseCode, web
from pydantic import BaseModel

from gamut_protocol import ClientKind, dump
from gamut_protocol.common import UNNAMED_PROTOCOL_VERSION

log = logging.getLogger(__name__)

CLOSE_TIMEOUT: Final = 2.0
"""Seconds a closing handshake may take before the socket is simply cut."""

_STOP: Final = ""
"""Queued to stop the writer once every frame before it is sent (no real frame is empty)."""

_ids = itertools.count(1)


class Connection:
    """A connected client: who it is once welcomed, and its outgoing queue."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        transport: asyncio.BaseTransport | None,
        *,
        queue_size: int,
        send_timeout: float,
    ) -> None:
        """Wrap a prepared socket and the TCP transport under it; :meth:`start` begins sending."""
        self.id = next(_ids)
        """A number unique in this server process, for logs and maps."""
        self.ws = ws
        self._transport = transport
        self.name: str | None = None
        """The player's name once the ``hello`` is accepted."""
        self.kind: ClientKind = "human"
        """The client's kind, from its ``hello``."""
        self.lobby = False
        """Whether the client follows the lobby."""
        self.protocol = UNNAMED_PROTOCOL_VERSION
        """The protocol version the client speaks, from its ``hello``."""
        self.rooms: set[str] = set()
        """The rooms this connection follows (as player or spectator)."""
        self.closed = False
        """Whether the connection is finished or being dropped; sends are ignored."""
        self.close_reason: str | None = None
        """Why the server closed it, if it did."""
        self._send_timeout = send_timeout
        self._queue: asyncio.Queue[str] = asyncio.Queue(maxsize=queue_size)
        self._writer: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None
        self._stopping = False
        self._high_water = max(1, queue_size // 2)
        self._drained = asyncio.Event()
        self._drained.set()

    def __repr__(self) -> str:
        return f"<Connection {self.id} {self.name or '(hello pending)'}>"

    @property
    def welcomed(self) -> bool:
        """Whether the ``hello`` was accepted."""
        return self.name is not None

    @property
    def backlog(self) -> int:
        """Frames waiting to be sent."""
        return self._queue.qsize()

    async def wait_drained(self) -> None:
        """Wait while half the queue or more is waiting to be sent.

        The handler calls this before reading the next frame, so a client that sends
        faster than it reads is slowed down (its socket is not read) instead of dropped.
        """
        while self._queue.qsize() >= self._high_water and not self.closed:
            self._drained.clear()
            await self._drained.wait()

    def start(self) -> None:
        """Start the writer task."""
        self._writer = asyncio.create_task(self._write_loop(), name=f"writer-{self.id}")

    def send(self, message: BaseModel) -> bool:
        """Queue ``message``; ``False`` if it was not (connection closed or dropped now)."""
        return self.send_text(dump(message))

    def send_text(self, text: str) -> bool:
        """Queue one frame of JSON text; a full queue drops the connection."""
        if self.closed:
            return False
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop("too slow: the outgoing queue is full")
            return False
        return True

    def close_after_sent(self, reason: str) -> None:
        """Close once the frames already queued are sent (after a fatal error, say)."""
        if self.closed:
            return
        self.close_reason = reason
        try:
            self._queue.put_nowait(_STOP)
        except asyncio.QueueFull:
            self.drop(reason)
            return
        self.closed = True
        self._stopping = True

    def drop(self, reason: str) -> None:
        """Close now, discarding whatever is queued; the client sees close code 1008."""
        if self._closer is not None:
            return
        log.info("dropping %r: %s", self, reason)
        self.closed = True
        self._drained.set()
        self.close_reason = self.close_reason or reason
        if self._writer is not None:
            self._writer.cancel()
        self._closer = asyncio.create_task(
            self._close(WSCloseCode.POLICY_VIOLATION, reason), name=f"closer-{self.id}"
        )

    async def go_away(self, reason: str) -> None:
        """Close now with code 1001 (the server is going away) and wait for it."""
        self.closed = True
        self.close_reason = reason
        if self._writer is not None:
            self._writer.cancel()
        await self._close(WSCloseCode.GOING_AWAY, reason)

    async def finish(self) -> None:
        """The handler is done with the socket: let a pending close go out, stop the writer."""
        self.closed = True
        writer = self._writer
        if writer is not None and self._stopping and not writer.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(writer), self._send_timeout + CLOSE_TIMEOUT)
        if self._closer is not None and not self._closer.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._closer), CLOSE_TIMEOUT)
        for task in (self._writer, self._closer):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _write_loop(self) -> None:
        """Send queued frames in order until told to stop or the socket fails."""
        while True:
            text = await self._queue.get()
            if text == _STOP:
                await self._close(WSCloseCode.POLICY_VIOLATION, self.close_reason or "")
                return
            try:
                # a timeout scope, not wait_for: wait_for makes a task for every frame
                async with asyncio.timeout(self._send_timeout):
                    await self.ws.send_str(text)
            except TimeoutError:
                self.drop("too slow: a frame took too long to send")
                return
            except (ConnectionError, RuntimeError):
                self.closed = True
                self._drained.set()
                return
            if self._queue.qsize() < self._high_water:
                self._drained.set()

    async def _close(self, code: int, reason: str) -> None:
        """Close the socket politely, or cut it if the client does not answer in time."""
        message = reason.encode()[:120]
        try:
            await asyncio.wait_for(self.ws.close(code=code, message=message), CLOSE_TIMEOUT)
        except (TimeoutError, ConnectionError, RuntimeError):
            self._abort()

    def _abort(self) -> None:
        """Cut the TCP connection under the socket."""
        if isinstance(self._transport, asyncio.Transport):
            self._transport.abort()
