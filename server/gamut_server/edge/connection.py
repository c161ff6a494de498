"""One client's WebSocket: a bounded outgoing queue drained by the connection's own writer.

Nothing ever awaits a client's socket on behalf of anyone else: rooms and the lobby
call :meth:`Connection.send`, which only puts the frame in the queue and returns at
once. The writer task sends the frames one by one; a client that stops reading
fills its queue (or stalls a single frame past the send timeout) and is dropped, so
it can never hold up a room. A dropped connection is gone at once: its TCP
connection is cut, so its handler ends and its name and slot are freed.

Lobby updates do not use the queue: they wait in a :class:`~gamut_server.edge.lobby_feed.
LobbyBacklog`, the latest word per subject, sent whenever the queue is empty, so
following a busy lobby never fills the queue. The socket is read only by the handler
task in :mod:`gamut_server.edge.session`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from typing import Any, Final, cast

from aiohttp import WSCloseCode, web
from pydantic import BaseModel

from gamut_protocol import ClientKind, ErrorMessage, Join, Resume, dump
from gamut_protocol.common import UNNAMED_PROTOCOL_VERSION
from gamut_server.edge.lobby_feed import LobbyBacklog, Subject
from gamut_server.edge.versions import error_for

log = logging.getLogger(__name__)

CLOSE_TIMEOUT: Final = 2.0
"""Seconds a closing handshake may take before the socket is simply cut."""

FRAME_OVERHEAD: Final = 16
"""Bytes a WebSocket frame's header adds to its text, at most."""

_STOP: Final = ""
"""Queued to stop the writer once every frame before it is sent (no real frame is empty)."""

_ids = itertools.count(1)


def number_connections_from(first: int) -> None:
    """Number the connections opened from now on ``first``, ``first + 1``, …: a node of a
    cluster takes ids no other node uses (see :mod:`gamut_server.cluster`)."""
    global _ids
    _ids = itertools.count(first)


class Connection:
    """A connected client: who it is once welcomed, and its outgoing queue."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        transport: asyncio.BaseTransport | None,
        *,
        queue_size: int,
        send_timeout: float,
        address: str = "",
    ) -> None:
        """Wrap a prepared socket and the TCP transport under it; :meth:`start` begins sending."""
        self.id = next(_ids)
        """A number unique in this server process, for logs and maps."""
        self.ws = ws
        self.address = address
        """The client's network address, which per-address limits count against."""
        # uvloop's transports have asyncio's methods but are not its classes: a transport is
        # taken for what it does (the TCP transport under a prepared WebSocket always can).
        self._transport = cast(asyncio.Transport | None, transport)
        self.name: str | None = None
        """The player's name once the ``hello`` is accepted."""
        self.watcher = False
        """Whether a ``hello`` without a name made it a connection that only watches
        (still unwelcomed: no name, no lobby)."""
        self.kind: ClientKind = "human"
        """The client's kind, from its ``hello``."""
        self.account_id: int | None = None
        """The account the ``hello`` signed in to; ``None`` for a guest."""
        self.session_secret: str | None = None
        """The secret of the session cookie the browser's upgrade request carried (from
        this site only), which signs in a ``hello`` under its account's name."""
        self.lobby = False
        """Whether the client follows the lobby."""
        self.protocol = UNNAMED_PROTOCOL_VERSION
        """The protocol version the client speaks, from its ``hello``."""
        self.rooms: set[str] = set()
        """The rooms this connection follows (as player or spectator)."""
        self.blocked: frozenset[str] = frozenset()
        """The names (folded) its player has blocked: their chat lines are not sent here."""
        self.in_flight: dict[str, list[Any]] = {}
        """Requests it sent to rooms on other nodes of a cluster, by room, until each is
        answered: sent again to a room's new node if the room's node dies first."""
        self.lobby_in_flight: list[Any] = []
        """Requests (lobby operations) it sent to the lobby on another node of a cluster,
        until each is answered: sent again to the next leader if the leader dies first."""
        self.closed = False
        """Whether the connection is finished or being dropped; sends are ignored."""
        self.close_reason: str | None = None
        """Why the server closed it, if it did."""
        self.refused = 0
        """How many of its frames were refused (over a limit, or no message)."""
        self.held = 0
        """How many times its reader waited for its frame budget to refill."""
        self._send_timeout = send_timeout
        self._queue: deque[str] = deque()
        self._queue_size = queue_size
        self._lobby = LobbyBacklog()
        self._loop = asyncio.get_running_loop()
        self._wake: asyncio.Future[None] | None = None
        """What the writer waits on while it has nothing to send (a bare future, not an
        event: an event looks the loop up, a system call on Python 3.11, every frame)."""
        self._writer: asyncio.Task[None] | None = None
        self._stopping = False
        self._cut = False
        self._high_water = max(1, queue_size // 2)
        self._drained = asyncio.Event()
        self._drained.set()

    def __repr__(self) -> str:
        return f"<Connection {self.id} {self.name or '(hello pending)'}>"

    def answered(self, reply_to: object) -> None:
        """A message answering the request ``reply_to`` was queued: it is no longer in flight."""
        if self.lobby_in_flight:
            self.lobby_in_flight = [
                ask for ask in self.lobby_in_flight if ask.message.id != reply_to
            ]
        for room_id, waiting in list(self.in_flight.items()):
            left = [request for request in waiting if request.id != reply_to]
            if not left:
                del self.in_flight[room_id]
            elif len(left) < len(waiting):
                self.in_flight[room_id] = left

    def entered(self, room_id: str) -> None:
        """The room ``room_id`` sent this connection something: its ``join`` or ``resume``
        there, even one without an ``id``, is answered."""
        waiting = self.in_flight.get(room_id)
        if waiting is None:
            return
        left = [request for request in waiting if not isinstance(request, Join | Resume)]
        if left:
            self.in_flight[room_id] = left
        else:
            del self.in_flight[room_id]

    @property
    def welcomed(self) -> bool:
        """Whether the ``hello`` was accepted."""
        return self.name is not None

    @property
    def backlog(self) -> int:
        """Frames waiting to be sent (lobby updates apart)."""
        return len(self._queue)

    async def wait_drained(self) -> None:
        """Wait while half the queue or more is waiting to be sent.

        The handler calls this before reading the next frame, so a client that sends
        faster than it reads is slowed down (its socket is not read) instead of dropped.
        """
        while len(self._queue) >= self._high_water and not self.closed:
            self._drained.clear()
            await self._drained.wait()

    def start(self) -> None:
        """Start the writer task."""
        self._writer = asyncio.create_task(self._write_loop(), name=f"writer-{self.id}")

    def send(self, message: BaseModel) -> bool:
        """Queue ``message`` (an error in the codes of the client's version); ``False`` if
        it was not (connection closed or dropped now)."""
        if isinstance(message, ErrorMessage):
            message = error_for(message, self.protocol)
        return self.send_text(dump(message))

    def send_text(self, text: str, lobby: Subject | None = None) -> bool:
        """Queue one frame of JSON text; a full queue drops the connection.

        A lobby update (``lobby`` names its subject) replaces any pending one on the
        same subject instead, and never fills the queue.
        """
        if self.closed:
            return False
        if lobby is not None:
            self._lobby.put(lobby, text)
        elif len(self._queue) >= self._queue_size:
            self.drop("too slow: the outgoing queue is full")
            return False
        else:
            self._queue.append(text)
        self._wake_writer()
        return True

    def close_after_sent(self, reason: str, *, deaf: bool = False) -> None:
        """Close once the frames already queued are sent (after a fatal error, say).

        ``deaf``: stop reading the socket at once, so a client flooding it costs nothing
        more while the closing handshake waits (then the connection is cut).
        """
        if self.closed:
            return
        if deaf and self._transport is not None:
            self._transport.pause_reading()
        self.close_reason = reason
        self._queue.append(_STOP)
        self._wake_writer()
        self.closed = True
        self._stopping = True

    def drop(self, reason: str) -> None:
        """Cut the connection now, discarding whatever is queued.

        A client dropped for not reading would not read a closing handshake either, so
        the TCP connection is simply aborted; the handler then ends and frees the name.
        """
        if self._cut:
            return
        self._cut = True
        log.info("dropping %r: %s", self, reason)
        self.closed = True
        self._drained.set()
        self.close_reason = self.close_reason or reason
        self._stop_writer()
        self._abort()

    async def go_away(self, reason: str) -> None:
        """Close now with code 1001 (the server is going away) and wait for it."""
        self.closed = True
        self.close_reason = reason
        self._stop_writer()
        await self._close(WSCloseCode.GOING_AWAY, reason)

    async def finish(self) -> None:
        """The handler is done with the socket: let a pending close go out, stop the writer."""
        self.closed = True
        self._drained.set()
        writer = self._writer
        if writer is None:
            return
        if self._stopping and not writer.done():
            await asyncio.wait({writer}, timeout=self._send_timeout + CLOSE_TIMEOUT)
        self._stop_writer()
        await asyncio.wait({writer}, timeout=CLOSE_TIMEOUT)

    def _stop_writer(self) -> None:
        """Stop the writer: cancelled, and woken to see that the connection is closed (a
        cancellation can be lost when it meets a frame just sent)."""
        writer = self._writer
        if writer is not None and writer is not asyncio.current_task():
            writer.cancel()
        self._stopping = False
        self._wake_writer()

    async def _next_frame(self) -> str | None:
        """The next frame to send: the queue's first, else the oldest lobby update;
        ``None`` once the connection is closed with nothing more to send."""
        while True:
            if self.closed and not self._stopping:
                return None
            if self._queue:
                return self._queue.popleft()
            text = self._lobby.pop()
            if text is not None:
                return text
            self._wake = self._loop.create_future()
            await self._wake

    def _wake_writer(self) -> None:
        """Wake the writer if it waits for something to send."""
        wake, self._wake = self._wake, None
        if wake is not None and not wake.done():
            wake.set_result(None)

    async def _write_loop(self) -> None:
        """Send queued frames in order until told to stop or the socket fails."""
        while True:
            text = await self._next_frame()
            if text is None:
                return
            if text == _STOP:
                await self._close(WSCloseCode.POLICY_VIOLATION, self.close_reason or "")
                return
            try:
                if self._may_wait(len(text)):
                    # a timeout scope, not wait_for: wait_for makes a task for every frame
                    async with asyncio.timeout(self._send_timeout):
                        await self.ws.send_str(text)
                else:
                    await self.ws.send_str(text)
            except TimeoutError:
                self.drop("too slow: a frame took too long to send")
                return
            except (ConnectionError, RuntimeError):
                self.closed = True
                self._drained.set()
                return
            if len(self._queue) < self._high_water:
                self._drained.set()

    def _may_wait(self, size: int) -> bool:
        """Whether sending a frame of ``size`` characters could wait for the client: only
        when the socket's buffer would pass its high-water mark (the WebSocket layer then
        waits for it to drain). Below it the frame is written at once, and no timeout
        needs setting up for it."""
        transport = self._transport
        if transport is None:
            return True
        high = transport.get_write_buffer_limits()[1]
        return transport.get_write_buffer_size() + FRAME_OVERHEAD + 4 * size > high

    async def _close(self, code: int, reason: str) -> None:
        """Close the socket politely, or cut it if the client does not answer in time.

        Whatever goes wrong (a timeout, a broken socket, or aiohttp's drain cancelled
        under the close), the TCP connection is cut: a closing socket never lingers.
        """
        message = reason.encode()[:120]
        try:
            await asyncio.wait_for(self.ws.close(code=code, message=message), CLOSE_TIMEOUT)
        except (TimeoutError, ConnectionError, RuntimeError):
            self._abort()
        except asyncio.CancelledError:
            self._abort()
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise

    def _abort(self) -> None:
        """Cut the TCP connection under the socket."""
        if self._transport is not None:
            self._transport.abort()


async def close_silent(
    ws: web.WebSocketResponse, transport: asyncio.BaseTransport | None, text: str, reason: str
) -> None:
    """Send ``text`` and close a socket that has no :class:`Connection` (one that never
    spoke), cutting it if the client does not answer the closing handshake in time."""
    try:
        async with asyncio.timeout(CLOSE_TIMEOUT):
            await ws.send_str(text)
            await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=reason.encode())
    except (TimeoutError, ConnectionError, RuntimeError):
        if transport is not None:  # uvloop's transports are not asyncio's classes
            cast(asyncio.Transport, transport).abort()


async def going_away(ws: web.WebSocketResponse, reason: str) -> None:
    """Close a socket that has no :class:`Connection` with code 1001 (the server is going
    away), giving up after :data:`CLOSE_TIMEOUT`."""
    with contextlib.suppress(TimeoutError, ConnectionError, RuntimeError):
        async with asyncio.timeout(CLOSE_TIMEOUT):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=reason.encode()[:120])
