"""The server's connection handling over real sockets: hello, ping, refusals, limits, HTTP."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from gamut_protocol import MAX_CLIENT_MESSAGE_BYTES, PROTOCOL_VERSION
from gamut_server import keys
from gamut_server.rooms.limits import Rate
from tests.server.live import WAIT, close_all, connect, live_server, server_config


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[TestServer]:
    async with live_server(server_config(tmp_path, hello_timeout=5.0)) as running:
        yield running


async def test_hello_is_welcomed_with_a_token_and_the_lobby(server: TestServer) -> None:
    client = await connect(server)
    await client.send({"type": "hello", "id": 1, "protocol": PROTOCOL_VERSION, "name": "ada"})
    welcome = await client.expect("welcome")
    assert welcome["reply_to"] == 1
    assert welcome["name"] == "ada"
    assert welcome["protocol"] == PROTOCOL_VERSION
    assert welcome["token"]
    snapshot = await client.expect("lobby_snapshot")
    assert snapshot["online"] >= 1
    await client.close()


async def test_ping_before_hello_and_other_messages_refused(server: TestServer) -> None:
    client = await connect(server)
    await client.send({"type": "ping", "id": "p"})
    assert (await client.next()) == {"type": "pong", "reply_to": "p"}
    await client.send({"type": "list_games", "id": 2})
    refusal = await client.next()
    assert refusal["code"] == "not_authenticated"
    assert refusal["reply_to"] == 2
    await client.hello("ada")
    await client.send({"type": "hello", "id": 3, "name": "ada"})
    again = await client.expect("error")
    assert again["code"] == "already_authenticated"
    await client.close()


async def test_a_name_in_use_needs_its_token(server: TestServer) -> None:
    first = await connect(server, "ada")
    second = await connect(server)
    await second.send({"type": "hello", "name": "ada"})
    assert (await second.expect("error"))["code"] == "name_taken"
    await second.send({"type": "hello", "name": "ada", "token": "not-the-token"})
    assert (await second.expect("error"))["code"] == "bad_token"
    welcome = await second.hello("ada", token=first.token)
    assert welcome["token"] == first.token
    third = await connect(server)
    await third.send({"type": "hello", "name": "ai-3"})
    assert (await third.expect("error"))["code"] == "name_taken"
    await close_all([first, second, third])


async def test_bad_frames_get_clear_errors_and_the_connection_lives(server: TestServer) -> None:
    client = await connect(server, "ada")
    await client.send_raw('{"type": "move", "room_id": "r1", "move": "23", "ply": 2,}')
    assert (await client.expect("error"))["code"] == "bad_json"
    await client.send({"type": "teleport", "id": 5})
    unknown = await client.expect("error")
    assert (unknown["code"], unknown["reply_to"]) == ("bad_message", 5)
    assert "teleport" in unknown["message"]
    await client.send({"type": "ping", "id": 6, "extra": 1})
    extra = await client.expect("error")
    assert extra["code"] == "bad_message"
    assert "extra" in extra["message"]
    await client.send_raw("[1, 2, 3]")
    assert (await client.expect("error"))["code"] == "bad_message"
    await client.ws.send_bytes(b"\xff\xfe not utf-8")
    assert (await client.expect("error"))["code"] == "bad_json"
    await client.send({"type": "join", "id": 7, "room_id": "nowhere", "role": "spectator"})
    missing = await client.expect("error")
    assert (missing["code"], missing["room_id"]) == ("unknown_room", "nowhere")
    await client.send({"type": "join_ladder", "id": 8, "pool": "network-5s"})
    refusal = await client.expect("error")  # guests are not rated
    assert (refusal["code"], refusal["request"]) == ("not_authenticated", "join_ladder")
    await client.send({"type": "ping", "id": 9})
    assert (await client.expect("pong"))["reply_to"] == 9
    await client.close()


async def test_an_oversized_frame_is_refused_and_closed(server: TestServer) -> None:
    client = await connect(server, "ada")
    await client.send({"type": "chat", "text": "x" * (MAX_CLIENT_MESSAGE_BYTES + 10)})
    refusal = await client.expect("error")
    assert refusal["code"] == "too_large"
    assert refusal["fatal"] is True
    closing = await client.ws.receive(timeout=5)
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    await client.close()
    other = await connect(server, "bob")
    await other.send({"type": "ping", "id": 1})
    assert (await other.expect("pong"))["reply_to"] == 1
    await other.close()


async def test_an_unsupported_version_is_refused_and_closed(server: TestServer) -> None:
    client = await connect(server)
    await client.send({"type": "hello", "protocol": PROTOCOL_VERSION + 1, "name": "ada"})
    refusal = await client.expect("error")
    assert (refusal["code"], refusal["fatal"]) == ("unsupported_version", True)
    closing = await client.ws.receive(timeout=5)
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    await client.close()


async def test_a_flood_is_held_back_not_dropped_and_the_connection_lives(
    tmp_path: Path,
) -> None:
    slow = Rate(capacity=10, per_second=0.001)
    config = server_config(tmp_path, messages=slow, queue_size=1000)
    async with live_server(config) as server:
        client = await connect(server, "ada")
        for number in range(30):
            await client.send({"type": "ping", "id": number})
        pongs = [await client.expect("pong") for _ in range(9)]  # the hello took one token
        assert [pong["reply_to"] for pong in pongs] == list(range(9))
        conn = next(iter(server.app[keys.HUB].connections.values()))
        while conn.held < 1:  # the reader waits for the budget instead of refusing
            await asyncio.sleep(0.01)
        assert conn.refused == 0
        assert not conn.closed
        assert not client.ws.closed
        await client.close()


async def test_a_fast_sender_is_slowed_and_every_message_answered(tmp_path: Path) -> None:
    config = server_config(tmp_path, messages=Rate(capacity=5, per_second=200))
    async with live_server(config) as server:
        client = await connect(server, "ada")
        for number in range(60):
            await client.send({"type": "ping", "id": number})
        pongs = [await client.expect("pong") for _ in range(60)]
        assert [pong["reply_to"] for pong in pongs] == list(range(60))
        conn = next(iter(server.app[keys.HUB].connections.values()))
        assert conn.held > 0
        assert conn.refused == 0
        await client.close()


async def test_chat_floods_are_limited_separately(tmp_path: Path) -> None:
    config = server_config(tmp_path, chat=Rate(capacity=3, per_second=0.001))
    async with live_server(config) as server:
        talker = await connect(server, "ada")
        listener = await connect(server, "bob")
        for number in range(6):
            await talker.send({"type": "chat", "id": number, "text": f"line {number}"})
        limited = [await talker.expect("error", code="rate_limited") for _ in range(3)]
        assert [error["reply_to"] for error in limited] == [3, 4, 5]
        heard = [await listener.expect("chat_line") for _ in range(3)]
        assert [line["text"] for line in heard] == ["line 0", "line 1", "line 2"]
        await talker.send({"type": "ping", "id": "still-here"})
        assert (await talker.expect("pong"))["reply_to"] == "still-here"
        await close_all([talker, listener])


async def test_a_client_that_never_reads_is_dropped_not_waited_for(tmp_path: Path) -> None:
    config = server_config(tmp_path, queue_size=8, send_timeout=0.5)
    async with live_server(config) as server:
        stuck = await connect(server, "stuck")
        stuck_conn = next(iter(server.app[keys.HUB].connections.values()))
        for _ in range(20):
            stuck_conn.send_text(json.dumps({"type": "pong"}))
        assert stuck_conn.closed
        assert "too slow" in (stuck_conn.close_reason or "")
        frame = await stuck.ws.receive(timeout=WAIT)
        while frame.type == aiohttp.WSMsgType.TEXT:  # what was written before the drop
            frame = await stuck.ws.receive(timeout=WAIT)
        assert frame.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR)  # cut
        healthy = await connect(server, "ok")
        await healthy.send({"type": "ping", "id": 1})
        assert (await healthy.expect("pong"))["reply_to"] == 1
        await close_all([stuck, healthy])


async def test_http_health_games_and_rooms(server: TestServer) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(server.make_url("/health")) as response:
            health = await response.json()
        assert health["status"] == "ok"
        assert health["protocol"] == PROTOCOL_VERSION
        assert health["rss_bytes"] > 0
        async with http.get(server.make_url("/api/games")) as response:
            games = await response.json()
        assert {game["name"] for game in games} >= {"network", "connect5", "loa", "crusher"}
        async with http.get(server.make_url("/api/rooms")) as response:
            assert await response.json() == []
        async with http.get(server.make_url("/api/games/finished")) as response:
            page = await response.json()
        assert (page["games"], page["total"]) == ([], 0)
        async with http.get(server.make_url("/api/games/finished?limit=0")) as response:
            assert response.status == 400
        async with http.get(server.make_url("/api/games/nosuchgame")) as response:
            assert response.status == 404
            assert (await response.json())["error"] == "unknown_game_id"
        async with http.get(server.make_url("/api/games/nosuchgame/export")) as response:
            assert response.status == 404
