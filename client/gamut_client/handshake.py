"""Opening one link to a Gamut server: the WebSocket, then ``hello`` until ``welcome``.

A :class:`~gamut_client.connection.Connection` opens a link here at the start and
after every drop; everything about keeping the link alive lives there.
"""

from __future__ import annotations

import asyncio
import logging
import socket

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed as WsConnectionClosed
from websockets.exceptions import InvalidHandshake, InvalidURI

from gamut_client.link import ConnectError, HelloRefusedError
from gamut_protocol import (
    ErrorMessage,
    Hello,
    ProtocolError,
    ServerMessage,
    Welcome,
    dump,
    parse_server_message,
)
from gamut_protocol.common import MAX_SERVER_MESSAGE_BYTES

log = logging.getLogger(__name__)

CLOSE_TIMEOUT = 2.0
"""Seconds a closing handshake may take."""


async def open_link(url: str, hello: Hello, *, timeout: float) -> tuple[ClientConnection, Welcome]:
    """Open a WebSocket to ``url`` and say ``hello``; returns it once welcomed.

    Raises :class:`~gamut_client.link.HelloRefusedError` if the server refuses the
    ``hello`` and :class:`~gamut_client.link.ConnectError` if it cannot be reached.
    """
    try:
        link = await ws_connect(
            url,
            open_timeout=timeout,
            ping_interval=None,
            close_timeout=CLOSE_TIMEOUT,
            max_size=MAX_SERVER_MESSAGE_BYTES,
            user_agent_header=hello.client,
        )
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as error:
        raise ConnectError(f"cannot reach {url}: {why_unreachable(error, timeout)}") from error
    try:
        welcome = await asyncio.wait_for(_greet(link, hello), timeout)
    except BaseException:
        await link.close()
        raise
    return link, welcome


def why_unreachable(error: Exception, timeout: float) -> str:
    """Why a WebSocket could not be opened, in words for people."""
    if isinstance(error, ConnectionRefusedError):
        return "nothing listens there (connection refused)"
    if isinstance(error, socket.gaierror):
        return f"the host name is not known ({error.strerror})"
    if isinstance(error, TimeoutError):
        return f"no answer within {timeout:g} s"
    if isinstance(error, InvalidURI):
        return "that is not a WebSocket URL"
    if isinstance(error, InvalidHandshake):
        return f"no Gamut server's WebSocket answers there ({error})"
    return str(error)


async def _greet(link: ClientConnection, hello: Hello) -> Welcome:
    """Send ``hello`` and wait for the ``welcome``."""
    try:
        await link.send(dump(hello))
        while True:
            message = parse(await link.recv())
            if isinstance(message, Welcome):
                return message
            if isinstance(message, ErrorMessage) and (
                message.reply_to == hello.id or message.fatal
            ):
                raise HelloRefusedError(message)
    except WsConnectionClosed as error:
        raise ConnectError(f"the server closed the connection: {error}") from error


def parse(raw: str | bytes) -> ServerMessage | None:
    """A server message, or ``None`` (logged) for one the protocol does not allow."""
    try:
        return parse_server_message(raw)
    except ProtocolError as error:
        log.warning("ignoring a message the protocol does not allow: %s", error)
        return None


def close_reason(link: ClientConnection, fallback: str) -> str:
    """Why the server closed ``link``, from its close frame when it gave one."""
    if link.close_reason:
        return f"the server closed the connection: {link.close_reason}"
    return fallback
