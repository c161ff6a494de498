"""One HTTP JSON call to a live test server."""

from __future__ import annotations

from typing import Any

import aiohttp
from aiohttp.test_utils import TestServer


async def http(
    server: TestServer,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    token: str | None = None,
) -> tuple[int, Any]:
    """``method path`` with ``body`` as JSON and ``token`` as a bearer: status and JSON answer."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, server.make_url(path), json=body, headers=headers) as answer,
    ):
        return answer.status, await answer.json(content_type=None)
