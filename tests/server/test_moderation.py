"""Moderation over real sockets: the operator's command line on the database of a running
server, bans ending live sessions and refusing sign-ins, banned addresses refused before
the WebSocket opens, mutes refusing chat, and the audit log holding every action."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from gamut_protocol import PROTOCOL_VERSION
from gamut_server import keys
from gamut_server.moderation.actions import Moderation
from tests.server.live import (
    close_all,
    connect,
    live_server,
    read_until_closed,
    server_config,
)
from tests.server.people import PASSWORD, post, sign_up

V6 = {"protocol": PROTOCOL_VERSION}


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[TestServer]:
    """A live server on a SQLite file the command line can reach too."""
    async with live_server(server_config(tmp_path)) as running:
        yield running


def db_of(server: TestServer) -> str:
    """The server's database file."""
    db = server.app[keys.CONFIG].db
    assert db is not None
    return db


async def gamut_mod(db: str, *arguments: str) -> str:
    """Run ``gamut mod ARGUMENTS --db DB`` as the operator would; its output."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gamut_client.cli", "mod", *arguments, "--db", db,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await process.communicate()
    assert process.returncode == 0, output.decode()
    return output.decode()


async def test_a_ban_from_the_command_line_ends_a_live_session_and_refuses_sign_in(
    server: TestServer,
) -> None:
    secret = await sign_up(server, "Pest")
    pest = await connect(server, "Pest", token=secret, **V6)
    bystander = await connect(server, "ada", **V6)
    said = await gamut_mod(
        db_of(server), "ban", "pest", "--reason", "insults in chat", "--for", "7d"
    )
    assert "Pest is banned until" in said
    ending = await read_until_closed(pest)
    banned = [m for m in ending if m["type"] == "error"][-1]
    assert banned["code"] == "banned"
    assert banned["fatal"]
    assert "banned until" in banned["message"]
    assert "insults in chat" in banned["message"]
    again = await connect(server)
    await again.send({"type": "hello", "id": "h", "name": "Pest", "token": secret, **V6})
    refusal = await again.expect("error", reply_to="h")
    assert refusal["code"] == "banned"
    assert "until" in refusal["message"]
    login = await post(server, "/api/login", {"name": "pest", "password": PASSWORD})
    assert login.status == 403
    assert login.body["error"] == "banned"
    await bystander.send({"type": "ping", "id": "p"})
    await bystander.expect("pong", reply_to="p")
    await gamut_mod(db_of(server), "unban", "pest", "--reason", "served")
    hub = server.app[keys.HUB]
    while hub.safety.ban("pest") is not None:  # the server has seen the unban
        await asyncio.sleep(0.02)
    welcome = await connect(server, "Pest", token=secret, **V6)
    log = await gamut_mod(db_of(server), "log")
    assert "operator: ban Pest until" in log
    assert "operator: unban pest" in log
    await close_all([again, bystander, welcome])


async def test_the_command_line_takes_a_guest_off_a_name_for_a_day(server: TestServer) -> None:
    guest = await connect(server, "pest", **V6)
    said = await gamut_mod(db_of(server), "take-name", "pest", "--reason", "a rude name")
    assert "pest is kept from guests until" in said
    ending = [m for m in await read_until_closed(guest) if m["type"] == "error"][-1]
    assert ending["code"] == "name_taken"
    assert "took you off the name 'pest'" in ending["message"]
    log = await gamut_mod(db_of(server), "log")
    entry = next(line for line in log.splitlines() if "take_name" in line)
    taken_at, until = (datetime.strptime(part[:16], "%Y-%m-%d %H:%M") for part in (
        entry, entry.split(" until ")[1]
    ))  # fmt: skip
    assert until - taken_at == timedelta(days=1)
    refused = await connect(server)
    await refused.send({"type": "hello", "id": "h", "name": "pest", **V6})
    assert (await refused.expect("error", reply_to="h"))["code"] == "name_taken"
    await close_all([refused])


async def test_an_older_client_is_told_in_a_code_it_knows(server: TestServer) -> None:
    await Moderation(server.app[keys.STORE]).ban("operator", "old", "spam", None)
    hub = server.app[keys.HUB]
    while hub.safety.ban("old") is None:
        await asyncio.sleep(0.02)
    client = await connect(server)
    await client.send({"type": "hello", "id": "h", "name": "old", "protocol": 5})
    refusal = await client.expect("error", reply_to="h")
    assert refusal["code"] == "not_authenticated"
    assert "banned for good: spam" in refusal["message"]
    await client.close()


async def test_a_banned_address_is_refused_before_the_websocket_opens(
    server: TestServer,
) -> None:
    watcher = await connect(server, "watcher", **V6)
    await gamut_mod(
        db_of(server), "ban-address", "127.0.0.0/8", "--reason", "a flood", "--for", "1h"
    )
    ending = await read_until_closed(watcher)
    assert ending[-1]["code"] == "banned"
    async with (
        aiohttp.ClientSession() as http,
        http.get(server.make_url("/ws"), headers={"Upgrade": "websocket"}) as answer,
    ):
        assert answer.status == 403
        body = await answer.json()
    assert body["error"] == "banned"
    assert "your address is banned until" in body["message"]
    await gamut_mod(db_of(server), "unban-address", "127.0.0.0/8")
    hub = server.app[keys.HUB]
    while hub.safety.address_refusal("127.0.0.1") is not None:
        await asyncio.sleep(0.02)
    back = await connect(server, "watcher", **V6)
    await back.close()


async def test_a_muted_player_s_chat_is_refused_with_a_sentence(server: TestServer) -> None:
    ada, pest = await connect(server, "ada", **V6), await connect(server, "pest", **V6)
    await gamut_mod(db_of(server), "mute", "pest", "--reason", "spam", "--for", "30m")
    hub = server.app[keys.HUB]
    while hub.safety.muted_refusal(hub.connections[max(hub.connections)]) is None:
        await asyncio.sleep(0.02)
    await pest.send({"type": "chat", "id": "c", "text": "buy my coins"})
    refusal = await pest.expect("error", reply_to="c")
    assert refusal["code"] == "muted"
    assert refusal["message"].startswith("you are muted until")
    await ada.send({"type": "chat", "text": "hello"})
    await ada.expect("chat_line", text="hello")
    assert not any(m.get("text") == "buy my coins" for m in ada.received)
    await close_all([ada, pest])


async def test_the_audit_log_holds_every_action(server: TestServer) -> None:
    await sign_up(server, "Mod1")
    db = db_of(server)
    await gamut_mod(db, "grant", "mod1")
    await gamut_mod(db, "mute", "x", "--reason", "spam")
    await gamut_mod(db, "unmute", "x", "--reason", "ok")
    await gamut_mod(db, "ban", "y", "--reason", "abuse", "--for", "2w")
    await gamut_mod(db, "ban-address", "203.0.113.0/24", "--reason", "farm")
    await gamut_mod(db, "revoke", "mod1")
    entries = await server.app[keys.STORE].audit_entries()
    assert [(e.actor, e.action, e.subject) for e in reversed(entries)] == [
        ("operator", "grant", "Mod1"),
        ("operator", "mute", "x"),
        ("operator", "unmute", "x"),
        ("operator", "ban", "y"),
        ("operator", "ban_address", "203.0.113.0/24"),
        ("operator", "revoke", "Mod1"),
    ]
    assert entries[2].until is not None
    assert entries[2].reason == "abuse"


async def test_the_command_line_works_with_no_server_running(tmp_path: Path) -> None:
    db = str(tmp_path / "alone.sqlite3")
    said = await gamut_mod(db, "ban", "pest", "--reason", "abuse")
    assert "pest is banned for good" in said
    async with live_server(server_config(tmp_path, db=db)) as server:
        client = await connect(server)
        await client.send({"type": "hello", "id": "h", "name": "PEST", **V6})
        assert (await client.expect("error", reply_to="h"))["code"] == "banned"
        await client.close()
