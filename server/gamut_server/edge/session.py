"""The ``/ws`` endpoint: one handler task per client, the only reader of its socket.

Every frame costs its sender: it spends from the connection's budget before it is even
parsed. A sender over its budget is held, not refused: the reader waits for the budget
to refill before it reads on, so the sender's further frames wait in its own socket (TCP
pushes back on it) and a fast bot's moves are slowed, never dropped. Frames that are not
a message, and chat lines over the chat limit, are refused; only a few refusals a second
are answered (with a clear ``error``), and a connection that keeps sending refused
frames is closed with a fatal ``rate_limited`` error. Good messages go to the hub, and
the reader waits until each is handled (stored and queued) before reading the next: a
client's messages are handled in the order sent. Fatal errors (``too_large``,
``unsupported_version``) are answered and the connection closed.

Before the socket is even accepted, the client's address must not be banned (HTTP 403,
``banned``, and a sentence saying until when) and must have room for one more
connection and not be cut off for an earlier flood (see
:mod:`gamut_server.edge.addresses`); if not, the upgrade is refused with HTTP 429 and a
sentence saying why. A connection closed for flooding cuts its address off. Until its
first frame, an open WebSocket is only its socket and one wait (:func:`first_frame`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Final

from aiohttp import WSMsgType, web

from gamut_protocol import (
    MAX_CLIENT_MESSAGE_BYTES,
    Chat,
    ClientMessage,
    ErrorMessage,
    Move,
    ProtocolError,
    Seek,
    dump,
    parse_client_message,
)
from gamut_protocol.errors import BANNED, INTERNAL_ERROR, NOT_AUTHENTICATED, RATE_LIMITED
from gamut_server import keys
from gamut_server.config import ServerConfig
from gamut_server.core.hub import Hub
from gamut_server.edge.addresses import client_address
from gamut_server.edge.connection import Connection, close_silent
from gamut_server.people.sessions import cookie_secret
from gamut_server.rooms.limits import ConnectionLimits

log = logging.getLogger(__name__)

FRAME_LIMIT: Final = 4 * MAX_CLIENT_MESSAGE_BYTES
"""Largest frame read at all. Frames above the protocol's limit and up to this one are
answered with ``too_large``; larger ones make the WebSocket layer close with 1009."""

TOO_CHATTY: Final = "too many chat lines too quickly; this one was dropped"
EXPELLED: Final = "too many refused messages: the connection is closed; slow down and reconnect"
FLOODED: Final = (
    "more messages than allowed, for too long without a pause: the connection is closed; "
    "slow down and reconnect"
)


async def websocket(request: web.Request) -> web.StreamResponse:
    """Serve one client until it leaves, is dropped, or the server stops."""
    config = request.app[keys.CONFIG]
    hub = request.app[keys.HUB]
    address = client_address(request, config.trusted_proxies)
    banned = hub.safety.address_refusal(address)
    if banned is not None:
        hub.metrics.refused("banned_address")
        return _refused(403, "Forbidden", BANNED, banned)
    refusal = hub.addresses.open(address, _now_ms())
    if refusal is not None:
        hub.metrics.refused("connections")
        return _refused(429, "Too Many Connections", RATE_LIMITED, refusal)
    conn: Connection | None = None
    try:
        ws = web.WebSocketResponse(heartbeat=config.heartbeat, max_msg_size=FRAME_LIMIT)
        try:
            await ws.prepare(request)
        except ConnectionResetError:  # the client hung up during the handshake: its choice
            log.debug("%s hung up during the WebSocket handshake", address)
            # aiohttp finishes the answer returned; one never begun fails quietly on the
            # closed socket (the half-begun WebSocket would fail loudly).
            return web.Response(status=400)
        hello_by = asyncio.get_running_loop().time() + config.hello_timeout
        hub.silent.add(ws)
        try:
            first = await first_frame(ws, request.transport, config.hello_timeout)
        finally:
            hub.silent.discard(ws)
        if first is None:
            return ws
        conn = Connection(
            ws,
            request.transport,
            queue_size=config.queue_size,
            send_timeout=config.send_timeout,
            address=address,
        )
        conn.session_secret = cookie_secret(request)
        await _serve(conn, hub, config, first, hello_by)
        return ws
    finally:
        hub.addresses.closed(address, welcomed=conn is not None and conn.welcomed)


async def _serve(
    conn: Connection, hub: Hub, config: ServerConfig, first: str | bytes, hello_by: float
) -> None:
    """Run ``conn``'s writer and read its frames, ``first`` first, until it closes
    (``hello_by``: the loop's time by which it must have said hello)."""
    conn.start()
    hub.attach(conn)
    try:
        reader = Reader(conn, hub, config)
        await reader.frame(first)
        await reader.run(conn.ws, hello_by)
    finally:
        await hub.detach(conn)
        await conn.finish()


def _refused(status: int, reason: str, code: str, sentence: str) -> web.Response:
    """The HTTP answer refusing a connection, with the reason in the body."""
    body = json.dumps({"error": code, "message": sentence})
    response = web.Response(
        status=status, reason=reason, text=body, content_type="application/json"
    )
    response.force_close()
    return response


class Reader:
    """Reads one client's frames and hands their messages to the hub."""

    def __init__(self, conn: Connection, hub: Hub, config: ServerConfig) -> None:
        """A reader for ``conn``, with its own rate limiters."""
        self.conn = conn
        self.hub = hub
        self.config = config
        self.limits = ConnectionLimits(
            _now_ms(), config.messages, config.chat, config.strikes, config.answers
        )
        self._held_since: int | None = None
        self._loop = asyncio.get_running_loop()

    def _now_ms(self) -> int:
        """The event loop's clock in milliseconds (the loop kept: looking it up costs a
        system call on every frame)."""
        return int(self._loop.time() * 1000)

    async def run(self, ws: web.WebSocketResponse, hello_by: float) -> None:
        """Read until the socket closes or the connection is closed by the server (or it
        has not said hello by the loop's time ``hello_by``)."""
        loop = asyncio.get_running_loop()
        while not self.conn.closed:
            said_hello = self.conn.welcomed or self.conn.watcher
            wait = None if said_hello else max(0.0, hello_by - loop.time())
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
            if frame_waiting(ws):  # else the next receive waits, and lets others through
                await asyncio.sleep(0)  # let other clients' frames and the writers through

    async def frame(self, data: str | bytes) -> None:
        """Handle one frame: spend its cost, parse it, check its allowances, route it."""
        now = await self._budget()
        if now is None:
            return
        try:
            message = parse_client_message(data)
        except ProtocolError as error:
            self._protocol_error(now, error)
            return
        over = self._over_allowance(message, now)
        if over is not None:
            self.hub.metrics.refused(over[0])
            self._refuse(now, lambda: ErrorMessage.answering(message, RATE_LIMITED, over[1]))
            return
        try:
            await self.hub.receive(self.conn, message)
            if isinstance(message, Move):
                self.hub.metrics.move_latency.observe((self._now_ms() - now) / 1000)
        except Exception:
            log.exception("handling %s from %r failed", message.type, self.conn)
            sentence = "the server failed to handle this message"
            self.conn.send(ErrorMessage.answering(message, INTERNAL_ERROR, sentence))

    async def _budget(self) -> int | None:
        """Spend one frame's cost, first waiting for the budget to refill if it is empty;
        the time after spending, or ``None`` if the connection was closed for keeping its
        budget empty longer than ``flood_s``."""
        now = self._now_ms()
        wait_ms = self.limits.messages.wait_ms(now)
        if wait_ms:
            self.conn.held += 1
            self._held_since = now if self._held_since is None else self._held_since
            if now - self._held_since > self.config.flood_s * 1000:
                self._expel(FLOODED)
                return None
            await asyncio.sleep(wait_ms / 1000)
            now = self._now_ms()
        else:
            self._held_since = None
        self.limits.allow_frame(now)
        return now

    def _over_allowance(self, message: ClientMessage, now: int) -> tuple[str, str] | None:
        """The limit ``message`` is over (the chat limit or its address's allowance) and
        why, if it is over one."""
        lobby_chat = isinstance(message, Chat) and message.room_id is None
        if isinstance(message, Chat) and not self.limits.allow_chat(now):
            return "chat", TOO_CHATTY
        if not self.conn.welcomed:
            return None
        addresses, address = self.hub.addresses, self.conn.address
        if lobby_chat and not addresses.allow("lobby_chat", address, now):
            return "lobby_chat", "too many lobby chat lines from your address; this one was dropped"
        if isinstance(message, Seek) and not addresses.allow("seeks", address, now):
            return "seeks", "too many seeks from your address; wait a little before seeking again"
        return None

    def _protocol_error(self, now: int, refusal: ProtocolError) -> None:
        """Answer a frame that is no message: fatal ones always, others as refusals."""
        if refusal.fatal:
            self.conn.send(refusal.to_message())
            self.conn.close_after_sent(refusal.message)
        else:
            self._refuse(now, refusal.to_message)

    def _refuse(self, now: int, answer: Callable[[], ErrorMessage]) -> None:
        """Count a refused frame: answer it (made only then), drop it, or close the connection."""
        self.conn.refused += 1
        verdict = self.limits.refuse(now)
        if verdict == "answer":
            self.conn.send(answer())
        elif verdict == "expel":
            self._expel(EXPELLED)

    def _expel(self, sentence: str) -> None:
        """Close the connection with a fatal ``rate_limited`` error saying why, and cut its
        address off for a while (see :meth:`AddressLimits.cut_off`)."""
        if self.conn.closed:
            return
        self.hub.metrics.refused("flood" if sentence == FLOODED else "strikes")
        cut_ms = self.hub.addresses.cut_off(self.conn.address, _now_ms())
        log.info("closing %r: %s (its address cut off for %d ms)", self.conn, sentence, cut_ms)
        self.conn.send(ErrorMessage(code=RATE_LIMITED, message=sentence, fatal=True))
        self.conn.close_after_sent(sentence, deaf=True)

    def _no_hello(self) -> None:
        """Close a connection that never said hello."""
        self.conn.send(no_hello(self.config.hello_timeout))
        self.conn.close_after_sent("no hello")


def no_hello(timeout: float) -> ErrorMessage:
    """The error closing a connection that said no hello within ``timeout`` seconds."""
    return ErrorMessage(
        code=NOT_AUTHENTICATED, message=f"no hello within {timeout:g} seconds", fatal=True
    )


async def first_frame(
    ws: web.WebSocketResponse, transport: asyncio.BaseTransport | None, timeout: float
) -> str | bytes | None:
    """The client's first frame, waited for ``timeout`` seconds. Until it comes, a
    connection costs only its socket and this wait: no queue, no writer, no reader, so
    a flood of sockets that never speak costs little. One that says nothing in time is
    told why and closed; ``None`` then, or if the client closed first."""
    try:
        frame = await ws.receive(timeout=timeout)
    except TimeoutError:
        await close_silent(ws, transport, dump(no_hello(timeout)), "no hello")
        return None
    if frame.type == WSMsgType.TEXT or frame.type == WSMsgType.BINARY:
        data: str | bytes = frame.data
        return data
    return None


def frame_waiting(ws: web.WebSocketResponse) -> bool:
    """Whether a frame of ``ws`` is read and waiting, so that its next ``receive`` returns
    at once without letting anyone else run; ``True`` when that cannot be told."""
    buffer = getattr(getattr(ws, "_reader", None), "_buffer", None)
    return buffer is None or bool(buffer)


def _now_ms() -> int:
    """The event loop's clock in milliseconds."""
    return int(asyncio.get_running_loop().time() * 1000)
