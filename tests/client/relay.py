"""A TCP relay between a client and a server that a test can slow down, cut, and refuse.

It stands for the network: every chunk can be held back a while (a slow link), and
:meth:`Relay.cut` drops every connection at once, as a broken link would, while
:attr:`Relay.refusing` keeps new ones out until the test lets them in.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


class Relay:
    """Forwards connections from a loopback port to ``target_port``."""

    def __init__(self, target_port: int, delay: float = 0.0) -> None:
        self.target_port = target_port
        self.delay = delay
        """Seconds each chunk is held back, in both directions."""
        self.refusing = False
        """Whether new connections are closed at once."""
        self.accepted = 0
        """Connections let through so far."""
        self._writers: list[asyncio.StreamWriter] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None

    @property
    def port(self) -> int:
        """The port clients connect to."""
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Relay]:
        """Listen for the ``async with`` block."""
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        try:
            yield self
        finally:
            self._server.close()
            self.cut()
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def cut(self) -> None:
        """Drop every connection now, without a goodbye."""
        for writer in self._writers:
            writer.transport.abort()
        self._writers.clear()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.refusing:
            writer.transport.abort()
            return
        self.accepted += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._writers += [writer, up_writer]
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(source, sink))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                if self.delay:
                    await asyncio.sleep(self.delay)
                sink.write(data)
                await sink.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            sink.transport.abort()
