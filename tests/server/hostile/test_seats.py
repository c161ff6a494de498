"""A seat is only ever taken back by the credential that took it: not by registering a
dropped guest's name, and not by naming a seated guest after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestServer

from tests.server.hostile.http import http
from tests.server.live import (
    WHITE_WINS,
    Client,
    close_all,
    connect,
    live_server,
    play,
    server_config,
    start_game,
)


async def register(server: TestServer, name: str) -> tuple[int, Any]:
    """``POST /api/accounts`` for ``name``: the status and the JSON body."""
    return await http(server, "POST", "/api/accounts", {"name": name})


async def refused_hello(server: TestServer, name: str, **hello: Any) -> dict[str, Any]:
    """The error answering a ``hello`` as ``name``."""
    stranger = await connect(server)
    await stranger.send({"type": "hello", "name": name, **hello})
    answer = await stranger.expect("welcome", "error")
    await stranger.close()
    return answer


async def take_seat_back(server: TestServer, name: str, token: str | None, room_id: str) -> Client:
    """``name`` says hello with ``token``, is told of ``room_id`` and sits down again."""
    player = await connect(server)
    welcome = await player.hello(name, token=token)
    assert welcome["rooms"] == [room_id]
    await player.send({"type": "join", "room_id": room_id, "role": "player"})
    await player.expect("room_snapshot", room_id=room_id)
    return player


async def test_a_dropped_guests_name_cannot_be_registered_or_signed_into(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path)) as server:
        alice, bob = await connect(server, "alice"), await connect(server, "bob")
        room_id, _, _ = await start_game(alice, bob)
        await play(alice, room_id, WHITE_WINS[0], 0)
        token = alice.token
        await alice.close()
        await bob.expect("player_disconnected", room_id=room_id)

        status, body = await register(server, "alice")
        assert (status, body["error"]) == (409, "name_taken")
        assert "guest" in body["message"]
        assert (await refused_hello(server, "alice"))["code"] == "name_taken"
        assert (await refused_hello(server, "alice", token="guessed"))["code"] == "bad_token"

        alice = await take_seat_back(server, "alice", token, room_id)
        await play(bob, room_id, WHITE_WINS[1], 1)
        await play(alice, room_id, WHITE_WINS[2], 2)
        await close_all([alice, bob])


async def test_a_seated_guest_keeps_the_seat_across_a_restart(tmp_path: Path) -> None:
    config = server_config(tmp_path)
    async with live_server(config) as server:
        alice, bob = await connect(server, "alice"), await connect(server, "bob")
        room_id, _, _ = await start_game(alice, bob)
        await play(alice, room_id, WHITE_WINS[0], 0)
        tokens = {"alice": alice.token, "bob": bob.token}
        await close_all([alice, bob])

    async with live_server(config) as server:
        assert (await refused_hello(server, "alice"))["code"] == "name_taken"
        assert (await refused_hello(server, "alice", token="guessed"))["code"] == "bad_token"
        status, _ = await register(server, "alice")
        assert status == 409
        alice = await take_seat_back(server, "alice", tokens["alice"], room_id)
        bob = await take_seat_back(server, "bob", tokens["bob"], room_id)
        await play(bob, room_id, WHITE_WINS[1], 1)
        await alice.send({"type": "resign", "room_id": room_id})
        over = await bob.expect("game_over", room_id=room_id)
        assert (over["result"]["winner"], over["result"]["reason"]) == (1, "resign")
        await close_all([alice, bob])
