"""An address that goes on registering accounts past its allowance is cut off: after
its allowance of refused requests, its sockets are refused as they are accepted, with a
sentence saying why, and other addresses are served as before."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from tests.server.hostile.test_cut_off import HOSTILE
from tests.server.hostile.test_refused_at_accept import plain_get
from tests.server.live import live_server, server_config


async def test_registering_on_past_the_allowance_cuts_the_address_off(tmp_path: Path) -> None:
    config = server_config(tmp_path).with_limit("registrations=2/0.01")
    config = config.with_limit("refused=3/0.01")
    async with (
        live_server(config) as server,
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(HOSTILE, 0))) as http,
    ):
        answers = []
        for n in range(6):
            body = {"name": f"bot{n}"}
            async with http.post(server.make_url("/api/accounts"), json=body) as answer:
                answers.append((answer.status, (await answer.json()).get("message", "")))
        assert [status for status, _ in answers[:2]] == [201, 201]
        refusals = [message for _, message in answers[2:]]
        assert all(message.startswith("too many accounts registered") for message in refusals)
        assert all("may not connect" not in message for message in refusals[:3])
        assert "your address may not connect for 5 s" in refusals[3]
        status, _ = await plain_get(server, "/health", HOSTILE)
        assert status == 429
        assert (await plain_get(server, "/health", "127.0.0.1"))[0] == 200
