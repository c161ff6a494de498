"""Where a Gamut server is: the default address, and a server's URL from what a person
types. Light on purpose (the standard library only): every ``gamut`` command line reads it
to register its commands, ``--help`` included."""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit, urlunsplit

DEFAULT_SERVER: Final = "ws://127.0.0.1:8080/ws"
"""The server the clients connect to unless told otherwise (``make run`` serves there)."""

DEFAULT_PATH: Final = "/ws"
"""The server's WebSocket endpoint."""


def server_url(text: str) -> str:
    """The WebSocket URL of a server given as ``ws://host:port/ws``, ``host:port`` or ``http://…``.

    A missing scheme means ``ws``, ``http`` and ``https`` become ``ws`` and ``wss``, and a
    missing path means ``/ws``. Raises ``ValueError`` for a URL with no host.
    """
    text = text.strip()
    if "://" not in text:
        text = "ws://" + text
    parts = urlsplit(text)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    if scheme not in ("ws", "wss"):
        raise ValueError(f"a Gamut server URL starts with ws:// or wss://, not {parts.scheme}://")
    if not parts.hostname:
        raise ValueError(f"no host in the server URL {text!r}")
    path = parts.path if parts.path not in ("", "/") else DEFAULT_PATH
    return urlunsplit((scheme, parts.netloc, path, parts.query, ""))
