"""The connection's protocol version: the newest by default, the oldest for an older server."""

from __future__ import annotations

import pytest

from gamut_client.connection import Connection, connect
from gamut_client.link import Backoff, HelloRefusedError
from gamut_protocol import MIN_PROTOCOL_VERSION, PROTOCOL_VERSION, ErrorCode, ErrorMessage
from tests.client.fake_server import FakeServer

pytestmark = pytest.mark.timeout(30)

FAST = Backoff(initial=0.01, factor=1.0, jitter=0.0, attempts=5)


def refusal(code: ErrorCode) -> ErrorMessage:
    """The fatal error a server answers a ``hello`` with."""
    return ErrorMessage(code=code, message=f"refused: {code}", request="hello", fatal=True)


async def test_hello_names_the_newest_version() -> None:
    server = FakeServer()
    async with server.running(), connect(server.url, "ada", heartbeat=None):
        assert [hello.protocol for hello in server.hellos] == [PROTOCOL_VERSION]


async def test_an_older_server_is_greeted_again_at_the_oldest_version_and_after_drops() -> None:
    server = FakeServer()
    server.refusals = [refusal("unsupported_version")]
    async with (
        server.running(),
        connect(server.url, "ada", heartbeat=None, backoff=FAST) as conn,
    ):
        assert conn.name == "ada"
        server.drop()
        await server.connected.wait()
        versions = [hello.protocol for hello in server.hellos]
    assert versions == [PROTOCOL_VERSION, MIN_PROTOCOL_VERSION, MIN_PROTOCOL_VERSION]


async def test_other_refusals_are_not_retried() -> None:
    server = FakeServer()
    server.refusals = [refusal("bad_token")]
    async with server.running():
        with pytest.raises(HelloRefusedError, match="bad_token"):
            await Connection.open(server.url, "ada", heartbeat=None)
    assert len(server.hellos) == 1
