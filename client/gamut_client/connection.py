"""A typed connection to a Gamut server that survives dropped links.

::

    async with connect("ws://localhost:8080/ws", "ada") as conn:
        await conn.send(Seek(game="connect5", opponent=AiOpponent(level=3)))
        async for message in conn:
            ...

:class:`Connection` says ``hello``, then yields every server message as a
:mod:`gamut_protocol` model. A heartbeat ``ping`` notices a dead link; the connection
then reconnects with growing delays, says ``hello`` again (with the guest token the
first ``welcome`` gave) and asks every room it follows to ``resume`` after the last
sequence number seen, so room events reach the caller once each and in order. The
stream also carries :class:`~gamut_client.link.Disconnected` and
:class:`~gamut_client.link.Reconnected` notices, for a client that shows the link's
state. Messages sent while the link is down wait for it to come back.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

from websockets.exceptions import ConnectionClosed as WsConnectionClosed

from gamut_client.link import (
    CLIENT_NAME,
    Backoff,
    ConnectError,
    Identity,
    Incoming,
    RequestError,
)
from gamut_client.link_keeper import (
    DEFAULT_HEARTBEAT,
    DEFAULT_OPEN_TIMEOUT,
    LinkKeeper,
    StreamEnd,
)
from gamut_protocol import (
    MAX_CLIENT_MESSAGE_BYTES,
    ClientKind,
    ClientMessage,
    ErrorMessage,
    Ping,
    ServerMessage,
    Welcome,
    dump,
)


class Connection(LinkKeeper):
    """A connection to a Gamut server: send client messages, iterate the server's.

    Make one with :meth:`open` (or :func:`connect`); it is welcomed by then, and
    :attr:`welcome` holds the server's answer. Its link is kept up by
    :class:`~gamut_client.link_keeper.LinkKeeper`.
    """

    @classmethod
    async def open(
        cls,
        url: str,
        name: str,
        *,
        kind: ClientKind = "human",
        token: str | None = None,
        client: str = CLIENT_NAME,
        lobby: bool = True,
        heartbeat: float | None = DEFAULT_HEARTBEAT,
        backoff: Backoff | None = None,
        open_timeout: float = DEFAULT_OPEN_TIMEOUT,
    ) -> Connection:
        """Connect to ``url`` and say ``hello`` as ``name``; returns once welcomed.

        Raises :class:`~gamut_client.link.HelloRefusedError` if the server refuses the
        ``hello`` and :class:`~gamut_client.link.ConnectError` if it cannot be reached.
        """
        identity = Identity(name=name, kind=kind, token=token, client=client, lobby=lobby)
        connection = cls(
            url, identity, heartbeat=heartbeat, backoff=backoff, open_timeout=open_timeout
        )
        link, welcome = await connection._handshake()
        connection._attach(link, welcome)
        connection._up.set()
        connection._supervisor = asyncio.create_task(connection._supervise(link), name="gamut-link")
        return connection

    @property
    def welcome(self) -> Welcome:
        """The server's latest ``welcome`` (a new one after each reconnection)."""
        if self._welcome is None:
            raise ConnectError("the connection has not been opened")
        return self._welcome

    @property
    def name(self) -> str:
        """The name the server knows this player by."""
        return self.welcome.name

    @property
    def connected(self) -> bool:
        """Whether the link is up now."""
        return self._up.is_set() and not self._closing

    @property
    def rooms(self) -> dict[str, int]:
        """Each room followed and the last sequence number delivered in it."""
        return dict(self._sequencer.rooms)

    async def send(self, message: ClientMessage) -> None:
        """Send ``message``, waiting for the link if it is down.

        Raises ``ValueError`` for a message longer than the server accepts,
        :class:`~gamut_client.link.ClientClosedError` after :meth:`close` and
        :class:`~gamut_client.link.ConnectError` once reconnecting has failed.
        """
        text = dump(message)
        if len(text.encode()) > MAX_CLIENT_MESSAGE_BYTES:
            raise ValueError(f"a client message may hold {MAX_CLIENT_MESSAGE_BYTES} bytes")
        while True:
            link = await self._ready_link()
            try:
                await link.send(text)
                return
            except WsConnectionClosed:
                if self._link is link:
                    self._up.clear()

    async def request(self, message: ClientMessage, timeout: float | None = None) -> ServerMessage:
        """Send ``message`` with an ``id`` and return the first server message replying to it.

        The reply is also yielded by the stream, like every message. Raises
        :class:`~gamut_client.link.RequestError` when the reply is an ``error``,
        ``TimeoutError`` after ``timeout`` seconds, and
        :class:`~gamut_client.link.ConnectError` if the link drops first.
        """
        if message.id is None:
            message = message.model_copy(update={"id": self._next_id("c")})
        message_id = message.id
        assert message_id is not None
        reply: asyncio.Future[ServerMessage] = asyncio.get_running_loop().create_future()
        self._pending[message_id] = reply
        try:
            await self.send(message)
            answer = await asyncio.wait_for(reply, timeout)
        finally:
            self._pending.pop(message_id, None)
        if isinstance(answer, ErrorMessage):
            raise RequestError(answer)
        return answer

    async def ping(self, timeout: float | None = None) -> float:
        """Ask the server for a ``pong``; returns the round trip in seconds."""
        started = time.monotonic()
        await self.request(Ping(), timeout)
        return time.monotonic() - started

    async def receive(self) -> Incoming:
        """The next server message or link notice; see :meth:`__anext__`."""
        return await self.__anext__()

    def __aiter__(self) -> Connection:
        return self

    async def __anext__(self) -> Incoming:
        """The next message; stops after :meth:`close`, raises once reconnecting failed."""
        item = await self._inbox.get()
        if isinstance(item, StreamEnd):
            self._inbox.put_nowait(item)
            if self._failure is not None:
                raise self._failure
            raise StopAsyncIteration
        return item

    async def close(self) -> None:
        """Close the link and stop reconnecting; iteration ends after what is queued."""
        if self._closing:
            return
        self._closing = True
        self._up.set()
        if self._supervisor is not None:
            self._supervisor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._supervisor
        if self._link is not None:
            await self._link.close()
        self._end()

    async def __aenter__(self) -> Connection:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()


@contextlib.asynccontextmanager
async def connect(
    url: str,
    name: str,
    *,
    kind: ClientKind = "human",
    token: str | None = None,
    client: str = CLIENT_NAME,
    lobby: bool = True,
    heartbeat: float | None = DEFAULT_HEARTBEAT,
    backoff: Backoff | None = None,
) -> AsyncIterator[Connection]:
    """Open a :class:`Connection` for the ``async with`` block and close it after."""
    connection = await Connection.open(
        url,
        name,
        kind=kind,
        token=token,
        client=client,
        lobby=lobby,
        heartbeat=heartbeat,
        backoff=backoff,
    )
    try:
        yield connection
    finally:
        await connection.close()
