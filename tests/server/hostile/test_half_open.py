"""Sockets that never finish a request's head: a few per address, closed when late."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from pathlib import Path

from aiohttp.test_utils import TestServer

from gamut_server.edge.addresses import AddressRules
from gamut_server.edge.guard import GUARD, HeadGuard
from tests.server.hostile.http import http
from tests.server.live import WAIT, connect, live_server, server_config

UNFINISHED = 3
"""The test server's limit on unfinished sockets from one address."""


class SlowHead:
    """A socket sending ``GET /health``'s head one byte every tenth of a second."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.dripping = asyncio.create_task(self._drip())

    @classmethod
    async def open(cls, server: TestServer) -> SlowHead:
        """Connect and send the first bytes of a request."""
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        return cls(reader, writer)

    async def _drip(self) -> None:
        """Send one more header byte every tenth of a second, never the blank line."""
        with contextlib.suppress(ConnectionError, OSError):
            while True:
                await asyncio.sleep(0.1)
                self.writer.write(b"X")
                await self.writer.drain()

    async def closed_by_server(self) -> bool:
        """Whether the server closes the socket (within the tests' wait) without answering."""
        try:
            data = await asyncio.wait_for(self.reader.read(1), WAIT)
        except ConnectionError:
            return True
        except TimeoutError:
            return False
        return data == b""

    async def close(self) -> None:
        """Stop dripping and close the socket."""
        self.dripping.cancel()
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


async def test_unfinished_requests_are_capped_per_address_and_closed_when_late(
    tmp_path: Path,
) -> None:
    rules = replace(AddressRules(), unfinished=UNFINISHED)
    config = server_config(tmp_path, addresses=rules, head_timeout=1.0)
    async with live_server(config) as server:
        guard = server.app[GUARD]
        slow = [await SlowHead.open(server) for _ in range(UNFINISHED)]
        while guard.unfinished("127.0.0.1") < UNFINISHED:  # the server has accepted them all
            await asyncio.sleep(0.01)
        one_more = await SlowHead.open(server)
        try:
            assert await one_more.closed_by_server()
            assert guard.refused >= 1
            for sock in slow:  # a trickle of header bytes does not keep a socket open
                assert await sock.closed_by_server()
            status, _ = await http(server, "GET", "/health")
            assert status == 200
        finally:
            await asyncio.gather(*(sock.close() for sock in [*slow, one_more]))


async def test_sockets_inside_a_request_or_answered_do_not_count(tmp_path: Path) -> None:
    rules = replace(AddressRules(), unfinished=UNFINISHED)
    async with live_server(server_config(tmp_path, addresses=rules)) as server:
        guard = server.app[GUARD]
        players = [await connect(server, f"p{i}") for i in range(UNFINISHED + 2)]
        assert guard.unfinished("127.0.0.1") == 0
        for _ in range(UNFINISHED + 2):
            status, _ = await http(server, "GET", "/health")
            assert status == 200
        for player in players:
            await player.close()
        while guard.unfinished("127.0.0.1"):  # every socket answered and closed is forgotten
            await asyncio.sleep(0.01)


def test_a_request_ending_after_a_sibling_socket_closed_keeps_the_count_right() -> None:
    guard = HeadGuard(limit=2)
    assert guard.opened(1, "203.0.113.7")
    assert guard.opened(2, "203.0.113.7")
    guard.request(1, started=True)  # socket 1 is inside a request
    guard.closed(2)  # socket 2 closes while still waiting for its head
    assert guard.unfinished("203.0.113.7") == 0
    guard.request(1, started=False)  # socket 1's request answered: waiting again
    assert guard.unfinished("203.0.113.7") == 1
    guard.closed(1)
    assert guard.unfinished("203.0.113.7") == 0
    assert guard.opened(3, "203.0.113.7")
