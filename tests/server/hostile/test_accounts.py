"""Revoking or replacing an account's token ends the sessions signed in with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestServer

from tests.server.hostile.http import http
from tests.server.live import close_all, connect, live_server, read_until_closed, server_config


async def token_call(
    server: TestServer, method: str, path: str, token: str | None = None
) -> dict[str, Any]:
    """One account call for ``mybot``, with ``token`` as the bearer; its JSON answer."""
    status, body = await http(server, method, path, {"name": "mybot"}, token)
    assert status < 300, body
    answer: dict[str, Any] = body
    return answer


async def test_revoking_a_token_closes_its_sessions(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path)) as server:
        token = (await token_call(server, "POST", "/api/accounts"))["token"]
        bot = await connect(server, "mybot", token=token, kind="bot")
        other = await connect(server, "guest")
        await token_call(server, "DELETE", "/api/accounts/mybot/token", token)
        closing = await read_until_closed(bot)
        fatal = [m for m in closing if m["type"] == "error" and m.get("fatal")]
        assert [m["code"] for m in fatal] == ["bad_token"]
        assert "revoked" in fatal[0]["message"]
        await other.send({"type": "ping", "id": "still"})
        assert (await other.expect("pong"))["reply_to"] == "still"
        await close_all([bot, other])


async def test_replacing_a_token_closes_the_sessions_of_the_old_one(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path)) as server:
        token = (await token_call(server, "POST", "/api/accounts"))["token"]
        bot = await connect(server, "mybot", token=token, kind="bot")
        new = (await token_call(server, "POST", "/api/accounts/mybot/token", token))["token"]
        closing = await read_until_closed(bot)
        assert [m["code"] for m in closing if m.get("fatal")] == ["bad_token"]
        again = await connect(server, "mybot", token=new, kind="bot")
        assert again.name == "mybot"
        await close_all([bot, again])
