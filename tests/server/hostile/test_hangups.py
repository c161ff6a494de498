"""Clients that hang up in the middle of the WebSocket handshake, or are refused at accept,
leave nothing in the log above DEBUG: log lines a stranger could make by the thousand."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import socket
import struct
from dataclasses import replace
from pathlib import Path

import pytest

from gamut_server.edge.addresses import AddressRules
from tests.server.live import connect, live_server, server_config

HANGUPS = 200


async def hang_up_during_handshake(port: int) -> None:
    """Send a WebSocket upgrade and reset the connection at once."""
    sock = socket.socket()
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    upgrade = (
        f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    await asyncio.get_running_loop().sock_sendall(sock, upgrade.encode())
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


async def test_hang_ups_and_refusals_at_accept_are_not_logged_as_errors(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rules = replace(AddressRules(), unfinished=4)
    config = server_config(tmp_path, addresses=rules)
    with caplog.at_level(logging.INFO):
        async with live_server(config, cancel_handlers=False) as server:
            port = server.port
            assert port is not None
            for _ in range(HANGUPS // 20):
                await asyncio.gather(*(hang_up_during_handshake(port) for _ in range(20)))
            player = await connect(server, "after")  # the server still serves
            await player.close()
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert loud == [], [r.getMessage()[:200] for r in loud]
