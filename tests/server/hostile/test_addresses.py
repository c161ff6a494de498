"""Limits per client address: connections, sockets yet to say hello, registrations,
lobby chat and seeks, each refused with a sentence saying why."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from gamut_server import keys
from gamut_server.edge.addresses import AddressRules
from gamut_server.rooms.limits import Rate
from tests.server.hostile.http import http
from tests.server.live import Client, close_all, connect, live_server, server_config

NEVER = 0.0001
"""A refill rate so slow that nothing comes back during a test."""

RULES = AddressRules(
    connections=4,
    unwelcomed=2,
    registrations=Rate(2, NEVER),
    lobby_chat=Rate(2, NEVER),
    seeks=Rate(3, NEVER),
)


async def test_connections_and_sockets_without_hello_are_capped(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path, addresses=RULES)) as server:
        silent = [await connect(server), await connect(server)]
        status, body = await http(server, "GET", "/ws")
        assert (status, body["error"]) == (429, "rate_limited")
        assert "not said hello" in body["message"]
        await silent[0].hello("ada")
        players = [silent[0], await connect(server, "bob"), await connect(server, "cyd")]
        status, body = await http(server, "GET", "/ws")
        assert status == 429
        assert "too many connections from your address: 4 at most" in body["message"]
        await players[2].close()
        await silent[1].close()
        addresses = server.app[keys.HUB].addresses
        while addresses.open_from("127.0.0.1") > 2:  # the server has seen both go
            await asyncio.sleep(0.01)
        later = await connect(server, "dee")
        assert later.name == "dee"
        await close_all([*players, later])


async def test_registrations_are_capped(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path, addresses=RULES)) as server:
        assert (await http(server, "POST", "/api/accounts", {"name": "one"}))[0] == 201
        assert (await http(server, "POST", "/api/accounts", {"name": "two"}))[0] == 201
        status, body = await http(server, "POST", "/api/accounts", {"name": "three"})
        assert (status, body["error"]) == (429, "rate_limited")
        assert "too many accounts registered from your address" in body["message"]


async def test_lobby_chat_and_seeks_are_capped_across_connections(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path, addresses=RULES)) as server:
        ada, bob = await connect(server, "ada"), await connect(server, "bob")
        answers = [await say(client, "hello") for client in (ada, bob, ada)]
        assert [answer["type"] for answer in answers] == ["chat_line", "chat_line", "error"]
        assert "lobby chat lines from your address" in answers[2]["message"]
        seeks = [await seek(client) for client in (ada, bob, ada, bob)]
        assert [answer["type"] for answer in seeks] == ["seek_created"] * 3 + ["error"]
        assert seeks[3]["code"] == "rate_limited"
        assert "too many seeks from your address" in seeks[3]["message"]
        await close_all([ada, bob])


async def say(client: Client, text: str) -> dict[str, Any]:
    """Say ``text`` in the lobby; the answer (the line itself, or an error)."""
    await client.send({"type": "chat", "id": "say", "text": text})
    return await client.expect("chat_line", "error", reply_to="say")


async def seek(client: Client) -> dict[str, Any]:
    """Open a Network seek; the answer."""
    await client.send({"type": "seek", "id": "seek", "game": "network"})
    return await client.expect("seek_created", "error", reply_to="seek")
