"""Helpers for people's accounts over real sockets: signing up and in over HTTP, and a
WebSocket client that carries the session cookie as the browser's does."""

from __future__ import annotations

from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any

import aiohttp
from aiohttp.test_utils import TestServer

from tests.server.live import Client

PASSWORD = "correct horse battery"
"""A password good enough for the server's rules."""


@dataclass
class Answer:
    """One HTTP answer: its status, headers' ``Set-Cookie`` values and JSON body."""

    status: int
    cookies: list[str]
    body: dict[str, Any]
    text: str


async def post(
    server: TestServer, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> Answer:
    """POST ``body`` as JSON to ``path`` and read the answer."""
    async with (
        aiohttp.ClientSession() as http,
        http.post(server.make_url(path), json=body, headers=headers or {}) as response,
    ):
        text = await response.text()
        cookies = response.headers.getall("Set-Cookie", [])
        return Answer(response.status, list(cookies), await response.json(), text)


async def get(server: TestServer, path: str, headers: dict[str, str] | None = None) -> Answer:
    """GET ``path`` and read the JSON answer."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(server.make_url(path), headers=headers or {}) as response,
    ):
        text = await response.text()
        return Answer(response.status, [], await response.json(), text)


def session_cookie(answer: Answer) -> str:
    """The session secret the answer's cookie sets."""
    for header in answer.cookies:
        cookie: SimpleCookie = SimpleCookie()
        cookie.load(header)
        if "gamut_session" in cookie:
            return cookie["gamut_session"].value
    raise AssertionError(f"no session cookie in {answer.cookies!r}")


async def sign_up(server: TestServer, name: str, password: str = PASSWORD) -> str:
    """Make the account ``name`` over HTTP; the session's secret, as a client that is no
    browser asks for it."""
    answer = await post(
        server, "/api/signup", {"name": name, "password": password, "session": "token"}
    )
    assert answer.status == 201, answer.body
    token: str = answer.body["token"]
    return token


async def cookie_client(server: TestServer, secret: str, origin: str | None = None) -> Client:
    """A WebSocket client whose upgrade carries the session cookie (and ``origin``)."""
    headers = {"Cookie": f"gamut_session={secret}"}
    if origin is not None:
        headers["Origin"] = origin
    session = aiohttp.ClientSession()
    ws = await session.ws_connect(server.make_url("/ws"), heartbeat=None, headers=headers)
    return Client(session, ws)
