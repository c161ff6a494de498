"""A TCP proxy on a loopback port whose connections a test can cut, as a flaky network would."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from urllib.parse import urlsplit


class Proxy:
    """Forwards each connection to the upstream server; :meth:`cut` drops them all."""

    def __init__(self, upstream_url: str) -> None:
        parts = urlsplit(upstream_url)
        assert parts.hostname is not None
        assert parts.port is not None
        self.upstream = (parts.hostname, parts.port)
        self.path = parts.path
        self.cuts = 0
        """How many times the connections were cut."""
        self.refusing = False
        """While true, new connections are closed at once, as by a network that is down."""
        self._writers: list[asyncio.StreamWriter] = []
        self._server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        """The WebSocket URL to connect through the proxy."""
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"ws://127.0.0.1:{port}{self.path}"

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Proxy]:
        """Listen for the ``async with`` block."""
        self._server = await asyncio.start_server(self._forward, "127.0.0.1", 0)
        try:
            yield self
        finally:
            self.cut()
            self._server.close()
            await self._server.wait_closed()

    def cut(self) -> None:
        """Drop every connection at once, with no goodbye to either side."""
        self.cuts += 1
        for writer in self._writers:
            writer.transport.abort()
        self._writers.clear()

    async def _forward(
        self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter
    ) -> None:
        """Pipe one client to the upstream server and back until either side stops."""
        if self.refusing:
            client_out.transport.abort()
            return
        server_in, server_out = await asyncio.open_connection(*self.upstream)
        self._writers += [client_out, server_out]
        await asyncio.gather(
            _pipe(client_in, server_out), _pipe(server_in, client_out), return_exceptions=True
        )


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    """Copy bytes until the source ends, then close the sink."""
    try:
        while data := await source.read(65536):
            sink.write(data)
            await sink.drain()
    finally:
        sink.transport.abort()
