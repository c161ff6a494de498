"""The server's HTTP JSON API, as the commands call it: one request, its JSON answer, and
the server's sentence when it refuses."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any


class ApiError(Exception):
    """The server refused or could not be reached; the message says why."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        """The HTTP status of a refusal; ``None`` when the server was not reached."""


def http_base(server: str) -> str:
    """The HTTP base of a server URL: ``ws://h:p/ws`` → ``http://h:p``."""
    url = server.rstrip("/").removesuffix("/ws")
    if url.startswith("ws://"):
        return "http://" + url.removeprefix("ws://")
    if url.startswith("wss://"):
        return "https://" + url.removeprefix("wss://")
    return url if "://" in url else "http://" + url


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """One request to the server's JSON API; raises :class:`ApiError`."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise ApiError(_refusal(error), error.code) from None
    except (urllib.error.URLError, OSError) as error:
        raise ApiError(f"cannot reach {base}: {error}") from None


def _refusal(error: urllib.error.HTTPError) -> str:
    """The sentence of an API error."""
    try:
        return str(json.loads(error.read())["message"])
    except (ValueError, KeyError, TypeError):
        return f"the server answered {error.code} {error.reason}"
