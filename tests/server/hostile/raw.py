"""A WebSocket client that never reads, over a bare socket, and the server's view of TCP.

aiohttp's and websockets' clients keep reading the socket into their own buffers; a
client that really stops reading needs a socket of its own: a small receive buffer, a
hand-made handshake, and masked text frames sent, nothing ever received.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
from pathlib import Path
from typing import Any

RECEIVE_BUFFER = 4096
"""The non-reader's receive buffer, so that the server's sends back up quickly."""

ESTABLISHED = "01"
"""The state of an established connection in ``/proc/net/tcp``."""


class NonReader:
    """A WebSocket client that sends messages and never reads a byte."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.port: int = sock.getsockname()[1]
        """The client's own TCP port."""

    @classmethod
    async def connect(cls, host: str, port: int) -> NonReader:
        """Connect to ``/ws`` and finish the handshake (its answer is the only thing read)."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
        sock.setblocking(False)
        loop = asyncio.get_running_loop()
        await loop.sock_connect(sock, (host, port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        await loop.sock_sendall(sock, request.encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += await loop.sock_recv(sock, 1)
        assert answer.startswith(b"HTTP/1.1 101"), answer
        return cls(sock)

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message as a masked text frame."""
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        size = len(payload)
        if size < 126:
            header = struct.pack("!BB", 0x81, 0x80 | size)
        else:
            header = struct.pack("!BBH", 0x81, 0x80 | 126, size)
        await asyncio.get_running_loop().sock_sendall(self.sock, header + mask + masked)

    def close(self) -> None:
        """Close the socket."""
        self.sock.close()


def server_side_established(server_port: int, client_port: int) -> bool:
    """Whether the server still holds an established TCP connection to ``client_port``."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        path = Path(table)
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            local, remote, state = fields[1], fields[2], fields[3]
            ports = (int(local.rsplit(":", 1)[1], 16), int(remote.rsplit(":", 1)[1], 16))
            if ports == (server_port, client_port) and state == ESTABLISHED:
                return True
    return False
