"""An address that goes on registering accounts, or signing in, past its allowance is cut
off: after its allowance of refused requests, its sockets are refused as they are accepted, with a
sentence saying why, and other addresses are served as before."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.test_utils import TestServer

from tests.server.hostile.test_cut_off import HOSTILE
from tests.server.hostile.test_refused_at_accept import plain_get
from tests.server.live import live_server, server_config
from tests.server.people import sign_up


@asynccontextmanager
async def hostile_server(
    tmp_path: Path, *limits: str
) -> AsyncIterator[tuple[TestServer, aiohttp.ClientSession]]:
    """A live server with ``limits``, and an HTTP client on the hostile address."""
    config = server_config(tmp_path)
    for limit in limits:
        config = config.with_limit(limit)
    async with (
        live_server(config) as server,
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(HOSTILE, 0))) as http,
    ):
        yield server, http


async def asked(
    server: TestServer, http: aiohttp.ClientSession, path: str, bodies: list[dict[str, Any]]
) -> list[tuple[int, str]]:
    """POST each of ``bodies`` to ``path``: each answer's status and sentence."""
    answers = []
    for body in bodies:
        async with http.post(server.make_url(path), json=body) as answer:
            answers.append((answer.status, (await answer.json()).get("message", "")))
    return answers


async def check_cut_off(
    server: TestServer, refusals: list[str], says: Callable[[str], bool]
) -> None:
    """The first three ``refusals`` say ``says`` only, the fourth cuts the address off,
    whose sockets are then refused while other addresses' are served."""
    assert all(says(message) for message in refusals)
    assert all("may not connect" not in message for message in refusals[:3])
    assert "your address may not connect for 5 s" in refusals[3]
    status, _ = await plain_get(server, "/health", HOSTILE)
    assert status == 429
    assert (await plain_get(server, "/health", "127.0.0.1"))[0] == 200


async def test_registering_on_past_the_allowance_cuts_the_address_off(tmp_path: Path) -> None:
    async with hostile_server(tmp_path, "registrations=2/0.01", "refused=3/0.01") as (server, http):
        bodies = [{"name": f"bot{n}"} for n in range(6)]
        answers = await asked(server, http, "/api/accounts", bodies)
        assert [status for status, _ in answers[:2]] == [201, 201]
        refusals = [message for _, message in answers[2:]]
        registered = "too many accounts registered"
        await check_cut_off(server, refusals, lambda m: m.startswith(registered))


async def test_signing_in_on_past_the_allowance_cuts_the_address_off(tmp_path: Path) -> None:
    async with hostile_server(tmp_path, "sign_ins=2/0.01", "refused=3/0.01") as (server, http):
        await sign_up(server, "ada")
        bodies = [{"name": "ada", "password": "a wrong guess"}] * 6
        answers = await asked(server, http, "/api/login", bodies)
        assert [status for status, _ in answers] == [401, 401, 429, 429, 429, 429]
        refusals = [message for _, message in answers[2:]]
        await check_cut_off(server, refusals, lambda m: m.startswith("too many sign-ins"))
