"""What each client hears of a move, over real sockets: the legal moves go to the player
now to move, and to every client speaking a protocol older than version 3."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer

from gamut_engine import load_game
from tests.server.live import close_all, connect, live_server, play, server_config, start_game


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[TestServer]:
    async with live_server(server_config(tmp_path)) as running:
        yield running


async def test_legal_moves_go_to_the_player_to_move_and_to_older_clients(
    server: TestServer,
) -> None:
    ada = await connect(server, "ada", protocol=3)
    bob = await connect(server, "bob", protocol=2)
    watchers = [await connect(server, "cyd", protocol=3), await connect(server, "dee")]
    room_id, _, _ = await start_game(ada, bob)
    for watcher in watchers:
        await watcher.send({"type": "join", "room_id": room_id, "role": "spectator"})
        snapshot = await watcher.expect("room_snapshot", room_id=room_id)
        assert len(snapshot["legal_moves"]) > 0
    game = load_game("network")
    after_first = game.play(game.initial_state(), game.parse_move(game.initial_state(), "01"))
    listed = sorted(game.format_move(move) for move in game.legal_moves(after_first))

    own = await play(ada, room_id, "01", 0)
    heard = [await client.expect("move_made", ply=0) for client in (bob, *watchers)]
    assert own.get("legal_moves", []) == []
    assert sorted(heard[0]["legal_moves"]) == listed  # bob moves next
    assert heard[1].get("legal_moves", []) == []  # cyd speaks version 3
    assert sorted(heard[2]["legal_moves"]) == listed  # dee speaks version 1

    own = await play(bob, room_id, "12", 1)
    heard = [await client.expect("move_made", ply=1) for client in (ada, *watchers)]
    assert len(own["legal_moves"]) > 0  # bob speaks version 2
    assert len(heard[0]["legal_moves"]) > 0  # ada moves next
    assert heard[1].get("legal_moves", []) == []
    assert heard[2]["legal_moves"] == heard[0]["legal_moves"]
    await close_all([ada, bob, *watchers])
