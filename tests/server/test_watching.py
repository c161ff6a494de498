"""A visitor who has not chosen a name watches a game: a ``hello`` without a ``name``
(protocol version 4) opens a connection that may follow rooms and do nothing else, and
still counts as a connection without a name for the per-address limits."""

from __future__ import annotations

import asyncio
from pathlib import Path

from aiohttp.test_utils import TestServer

from gamut_protocol import WATCH_VERSION
from gamut_server import keys
from gamut_server.edge.addresses import AddressRules
from tests.server.hostile.http import http
from tests.server.live import (
    WHITE_WINS,
    Client,
    Message,
    close_all,
    connect,
    live_server,
    play,
    read_until_closed,
    server_config,
    start_game,
)


async def watcher(server: TestServer) -> Client:
    """A connection that said hello without a name."""
    client = await connect(server)
    await client.send({"type": "hello", "id": "w", "protocol": WATCH_VERSION})
    answer = await client.expect("watching", "error", reply_to="w")
    assert answer == {
        "type": "watching",
        "reply_to": "w",
        "protocol": WATCH_VERSION,
        "server": answer["server"],
    }
    return client


async def refused(client: Client, message: Message) -> Message:
    """Send ``message`` (with an id) and return the error that answers it."""
    await client.send({**message, "id": "r"})
    answer = await client.expect("error", "room_snapshot", "chat_line", reply_to="r")
    assert answer["type"] == "error", answer
    return answer


async def test_a_visitor_without_a_name_watches_and_needs_one_to_chat(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path, hello_timeout=0.5)) as server:
        ada, bob = await connect(server, "ada"), await connect(server, "bob")
        room, _, _ = await start_game(ada, bob)
        await play(ada, room, WHITE_WINS[0], 0)

        visitor = await watcher(server)
        await visitor.send({"type": "join", "id": "j", "room_id": room, "role": "spectator"})
        snapshot = await visitor.expect("room_snapshot", reply_to="j")
        assert "your_side" not in snapshot
        assert snapshot["game"]["geometry"]["kind"] == "board"
        assert [entry["move"] for entry in snapshot["moves"]] == [WHITE_WINS[0]]

        chat = await refused(visitor, {"type": "chat", "room_id": room, "text": "hi"})
        assert chat["code"] == "not_authenticated"
        assert chat["message"] == (
            "this connection only watches: say hello with a name to play or chat"
        )
        for message in (
            {"type": "join", "room_id": room, "role": "player"},
            {"type": "seek", "game": "network"},
            {"type": "move", "room_id": room, "move": WHITE_WINS[1], "ply": 1},
        ):
            assert (await refused(visitor, message))["code"] == "not_authenticated"
        again = await refused(visitor, {"type": "hello", "protocol": WATCH_VERSION})
        assert again["code"] == "already_authenticated"

        # A connection that says nothing is closed after the hello timeout; the watcher,
        # older than it, is not: it still sees the game go on.
        silent = await connect(server)
        closing = await read_until_closed(silent)
        assert closing[-1]["message"] == "no hello within 0.5 seconds"
        await play(bob, room, WHITE_WINS[1], 1)
        await visitor.expect("move_made", room_id=room, ply=1)

        # Naming itself later on the same connection, the visitor may chat.
        await visitor.hello("cyd")
        await visitor.send({"type": "chat", "room_id": room, "text": "nice"})
        line = await ada.expect("chat_line", room_id=room)
        assert (line["author"], line["text"]) == ("cyd", "nice")
        await close_all([ada, bob, visitor])


async def test_a_watcher_that_leaves_is_no_longer_counted(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path)) as server:
        ada, bob = await connect(server, "ada"), await connect(server, "bob")
        room, _, _ = await start_game(ada, bob)
        visitor = await watcher(server)
        await visitor.send({"type": "join", "id": "j", "room_id": room, "role": "spectator"})
        await visitor.expect("room_snapshot", reply_to="j")
        assert await spectators(server, room) == 1
        await visitor.close()
        while await spectators(server, room) != 0:  # the server has seen it go
            await asyncio.sleep(0.01)
        await close_all([ada, bob])


async def spectators(server: TestServer, room: str) -> int:
    """How many watch ``room``, as ``/api/rooms`` says."""
    _, rooms = await http(server, "GET", "/api/rooms")
    return int({summary["room_id"]: summary["spectators"] for summary in rooms}[room])


async def test_a_hello_without_a_name_needs_version_4(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path)) as server:
        client = await connect(server)
        answer = await refused(client, {"type": "hello", "protocol": 3})
        assert (answer["code"], answer["message"]) == (
            "bad_message",
            "a hello needs a name before protocol version 4",
        )
        await client.close()


async def test_watchers_count_as_connections_without_a_name(tmp_path: Path) -> None:
    rules = AddressRules(connections=10, unwelcomed=2)
    async with live_server(server_config(tmp_path, addresses=rules)) as server:
        watchers = [await watcher(server), await watcher(server)]
        status, body = await http(server, "GET", "/ws")
        assert (status, body["error"]) == (429, "rate_limited")
        assert "not said hello" in body["message"]
        await watchers[0].close()
        addresses = server.app[keys.HUB].addresses
        while addresses.open_from("127.0.0.1") > 1:  # the server has seen it go
            await asyncio.sleep(0.01)
        watchers.append(await watcher(server))
        await close_all(watchers)
