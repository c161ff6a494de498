"""Sockets that have not finished a request: counted per address, and given a deadline.

A stranger can open sockets and send a request's head one byte at a time; until the head
is complete, no handler runs and no other limit sees the socket. So every accepted socket
counts against its address until a request on it reaches the application, and again
once that request has been answered (while it waits for the next one):

- an address may hold at most ``ServerConfig.unfinished`` such sockets; one more is
  closed as it is accepted, before a byte is read;
- a socket from an address its limits turn away (cut off for flooding, or out of
  connections: :meth:`gamut_server.edge.addresses.AddressLimits.refused_at_accept`) is
  answered, :data:`REFUSAL_DELAY_S` later, with a short 429 saying why and closed, its
  request never read; it counts as unfinished meanwhile;
- a socket that has not finished a request's head within ``ServerConfig.head_timeout``
  seconds of opening, or of its last answer, is closed (aiohttp's keep-alive deadline,
  which its request handler checks while it waits for a head).

A socket inside a request (a WebSocket for its whole life) counts here no more; the
per-address limits of :mod:`gamut_server.edge.addresses` take over. Sockets from a
trusted reverse proxy are not counted: many clients share them, and the proxy holds
their unfinished requests itself.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Final

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from gamut_protocol.errors import RATE_LIMITED

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class HeadGuard:
    """The unfinished sockets of every address."""

    def __init__(self, limit: int, trusted: Collection[str] = ()) -> None:
        """At most ``limit`` unfinished sockets an address; ``trusted`` peers uncounted."""
        self.limit = limit
        """Most unfinished sockets from one address."""
        self.trusted = frozenset(trusted)
        self.refused = 0
        """Sockets closed at accept because their address had too many unfinished."""
        self.on_refused: Callable[[], None] = lambda: None
        """Told of each socket closed at accept (the metrics count them)."""
        self.turned_away: Callable[[str], str | None] = lambda address: None
        """Why a socket from an address is refused at accept whatever it asks (the
        address's limits say: cut off, or out of connections), or ``None``."""
        self._peer: dict[int, str] = {}
        self._waiting: dict[int, bool] = {}
        self._count: dict[str, int] = {}

    def unfinished(self, address: str) -> int:
        """How many sockets from ``address`` are waiting for a request's head."""
        return self._count.get(address, 0)

    def refusal(self, address: str | None) -> str | None:
        """Why a socket from ``address`` is refused as it is accepted (see
        :attr:`turned_away`), or ``None``; trusted proxies are never refused."""
        if address is None or address in self.trusted:
            return None
        return self.turned_away(address)

    def opened(self, socket_id: int, address: str | None) -> bool:
        """A socket was accepted; whether it may stay open."""
        if address is None or address in self.trusted:
            return True
        if self._count.get(address, 0) >= self.limit:
            self.refused += 1
            self.on_refused()
            return False
        self._peer[socket_id] = address
        self._waiting[socket_id] = True
        self._count[address] = self._count.get(address, 0) + 1
        return True

    def request(self, socket_id: int, *, started: bool) -> None:
        """A request on the socket reached the application (``started``) or was answered."""
        address = self._peer.get(socket_id)
        if address is None or self._waiting.get(socket_id) is not started:
            return
        self._waiting[socket_id] = not started
        self._add(address, -1 if started else 1)

    def closed(self, socket_id: int) -> None:
        """The socket closed."""
        address = self._peer.pop(socket_id, None)
        waiting = self._waiting.pop(socket_id, False)
        if address is not None and waiting:
            self._add(address, -1)

    def _add(self, address: str, change: int) -> None:
        """Change the count of ``address``'s unfinished sockets (forgotten at zero: one
        socket's request may end after another's close has emptied the count)."""
        count = self._count.get(address, 0) + change
        if count > 0:
            self._count[address] = count
        else:
            self._count.pop(address, None)


REFUSAL_DELAY_S: Final = 1.0
"""How long a socket refused at accept waits for its answer, unread: a client that
reconnects as soon as it is refused is slowed to one attempt a second a socket, and the
waiting sockets count against their address's unfinished ones (past those, they are
closed at once, unanswered)."""

GUARD: web.AppKey[HeadGuard] = web.AppKey("head_guard", HeadGuard)
"""The application's count of unfinished sockets."""


@web.middleware
async def count_requests(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Mark the request's socket as inside a request until it is answered."""
    guard = request.app.get(GUARD)
    if guard is None:
        return await handler(request)
    socket_id = id(request.protocol)
    guard.request(socket_id, started=True)
    try:
        return await handler(request)
    finally:
        guard.request(socket_id, started=False)


class GuardedRunner(web.AppRunner):
    """aiohttp's application runner, counting each socket as it is accepted."""

    def __init__(self, app: web.Application, head_timeout: float, **kwargs: Any) -> None:
        """A runner for ``app`` (which holds a :data:`GUARD`), closing sockets without a
        request's head after ``head_timeout`` seconds."""
        super().__init__(app, keepalive_timeout=head_timeout, **kwargs)

    async def _make_server(self) -> web.Server:
        """aiohttp's server, its accepts and closes also told to the guard."""
        server = await super()._make_server()
        guard = self.app.get(GUARD)
        if guard is not None:
            _watch(server, guard)
        return server


def _watch(server: web.Server, guard: HeadGuard) -> None:
    """Tell ``guard`` of every socket ``server`` accepts and loses; close those refused."""
    made, lost = server.connection_made, server.connection_lost

    def connection_made(handler: RequestHandler, transport: asyncio.Transport) -> None:
        made(handler, transport)
        peer = _peer(transport)
        # Closed after the handler's task has started: a handler losing its socket before
        # its task starts fails an assertion of aiohttp's, logged for each socket. A
        # refused socket's reading is paused before it starts: its request is never read.
        sentence = guard.refusal(peer)
        allowed = guard.opened(id(handler), peer)
        if sentence is not None and allowed:
            handler.close()  # it ignores whatever it reads (under uvloop reading starts)
            transport.pause_reading()  # and asyncio does not even read
            asyncio.get_running_loop().call_later(REFUSAL_DELAY_S, _refuse, transport, sentence)
        elif not allowed:
            asyncio.get_running_loop().call_soon(transport.abort)

    def connection_lost(handler: RequestHandler, exc: BaseException | None = None) -> None:
        guard.closed(id(handler))
        lost(handler, exc)

    server.connection_made = connection_made  # type: ignore[method-assign]
    server.connection_lost = connection_lost  # type: ignore[method-assign]


def _refuse(transport: asyncio.Transport, sentence: str) -> None:
    """Answer a socket refused at accept with ``sentence`` and close it (unless its client
    hung up meanwhile: then it is closed already)."""
    if transport.is_closing():
        return
    transport.write(refusal_bytes(sentence))
    transport.close()


def refusal_bytes(sentence: str) -> bytes:
    """A whole HTTP answer refusing a socket with 429 and ``sentence`` (the JSON body a
    refused WebSocket gets), closing the connection; written before any request is read."""
    body = json.dumps({"error": RATE_LIMITED, "message": sentence}).encode()
    head = (
        "HTTP/1.1 429 Too Many Connections\r\nContent-Type: application/json; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


def _peer(transport: asyncio.BaseTransport) -> str | None:
    """The address of the socket's peer, if it has one."""
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return None
