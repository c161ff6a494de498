"""Sockets from an address that its limits turn away (cut off for flooding, or with its
most connections open) are refused as they are accepted: whatever they ask, the answer
is a short 429 saying why, written before their request is read; other addresses, and
the same one once its limits allow it, are served as before."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer

from gamut_server import keys
from gamut_server.edge.guard import GUARD, REFUSAL_DELAY_S
from tests.server.hostile.test_cut_off import HOSTILE, from_hostile
from tests.server.live import close_all, live_server, server_config


async def plain_get(server: TestServer, path: str, source: str) -> tuple[int, bytes]:
    """``GET path`` from the address ``source`` over a bare socket: the answer's status
    and body, read until the server closes (a reset after the answer is the server's
    closing a socket whose request it never read)."""
    loop = asyncio.get_running_loop()
    with socket.socket() as sock:
        sock.setblocking(False)
        sock.bind((source, 0))
        await loop.sock_connect(sock, (server.host, server.port or 0))
        request = f"GET {path} HTTP/1.1\r\nHost: {server.host}\r\nConnection: close\r\n\r\n"
        await loop.sock_sendall(sock, request.encode())
        answer = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := await loop.sock_recv(sock, 65536):
                answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


async def test_a_cut_off_address_is_refused_at_accept_whatever_it_asks(
    tmp_path: Path,
) -> None:
    async with live_server(server_config(tmp_path)) as server:
        assert (await plain_get(server, "/health", HOSTILE))[0] == 200
        flooder = await from_hostile(str(server.make_url("/ws")))
        with contextlib.suppress(ConnectionError, RuntimeError):
            while not flooder.ws.closed:
                await flooder.send_raw("not json {")
                await asyncio.sleep(0)
        await flooder.close()
        status, body = await plain_get(server, "/health", HOSTILE)
        assert status == 429
        refusal = json.loads(body)
        assert refusal["error"] == "rate_limited"
        assert refusal["message"].startswith(
            "a connection from your address was closed for flooding: wait"
        )
        assert (await plain_get(server, "/health", "127.0.0.1"))[0] == 200


async def test_an_address_with_its_most_connections_open_is_refused_at_accept(
    tmp_path: Path,
) -> None:
    config = server_config(tmp_path).with_limit("connections=2")
    async with live_server(config) as server:
        hub = server.app[keys.HUB]
        url = str(server.make_url("/ws"))
        held = [await from_hostile(url) for _ in range(2)]
        while hub.addresses.open_from(HOSTILE) < 2:
            await asyncio.sleep(0.01)
        status, body = await plain_get(server, "/health", HOSTILE)
        assert status == 429
        assert json.loads(body)["message"] == "too many connections from your address: 2 at most"
        assert (await plain_get(server, "/health", "127.0.0.1"))[0] == 200
        await close_all(held[:1])
        while hub.addresses.open_from(HOSTILE) > 1:
            await asyncio.sleep(0.01)
        assert (await plain_get(server, "/health", HOSTILE))[0] == 200
        await close_all(held[1:])


async def test_a_refused_client_that_hangs_up_first_leaves_nothing_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = server_config(tmp_path).with_limit("connections=1")
    async with live_server(config) as server:
        hub, guard = server.app[keys.HUB], server.app[GUARD]
        held = await from_hostile(str(server.make_url("/ws")))
        while hub.addresses.open_from(HOSTILE) < 1:
            await asyncio.sleep(0.01)
        loop = asyncio.get_running_loop()
        answered_by = loop.time() + REFUSAL_DELAY_S
        with socket.socket() as sock:
            sock.setblocking(False)
            sock.bind((HOSTILE, 0))
            await loop.sock_connect(sock, (server.host, server.port or 0))
            await loop.sock_sendall(sock, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            while guard.unfinished(HOSTILE) < 1:
                await asyncio.sleep(0.01)
        while guard.unfinished(HOSTILE) > 0 or loop.time() < answered_by:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0)
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
        await close_all([held])
