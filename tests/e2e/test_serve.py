"""End to end: a real ``gamut serve`` process and clients over real WebSockets.

Two people play a whole Network game while a third watches and chats; a person plays
the AI; the server is stopped mid-game (politely, and by SIGKILL) and started again
on the same database, and the games finish.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import aiohttp

from tests.e2e.served import serve
from tests.server.live import WHITE_WINS, Client, Message, close_all, play, start_game


async def connect(url: str, name: str, token: str | None = None) -> Client:
    """A client welcomed under ``name``."""
    client = await Client.connect(url)
    await client.hello(name, **({"token": token} if token else {}))
    return client


async def get_json(url: str) -> Any:
    """GET ``url`` and decode its JSON."""
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        assert response.status == 200
        return await response.json()


async def test_two_players_and_a_spectator_over_gamut_serve(tmp_path: Path, server_db: str) -> None:
    with serve(server_db, "--ai-workers", "0", logs=tmp_path) as served:
        health = await get_json(served.http_url + "/health")
        assert isinstance(health, dict)
        assert health["status"] == "ok"
        white, black = await connect(served.ws_url, "ada"), await connect(served.ws_url, "bob")
        room_id, _, _ = await start_game(white, black)
        rooms = await get_json(served.http_url + "/api/rooms")
        assert [room["room_id"] for room in rooms] == [room_id]
        for ply, text in enumerate(WHITE_WINS[:6]):
            await play((white, black)[ply % 2], room_id, text, ply)
        watcher = await connect(served.ws_url, "cyd")
        await watcher.send({"type": "join", "room_id": room_id, "role": "spectator"})
        snapshot = await watcher.expect("room_snapshot")
        assert len(snapshot["moves"]) == 6
        await watcher.send({"type": "chat", "room_id": room_id, "text": "nice network"})
        assert (await white.expect("chat_line", room_id=room_id))["author"] == "cyd"
        for ply in range(6, len(WHITE_WINS)):
            await play((white, black)[ply % 2], room_id, WHITE_WINS[ply], ply)
        seen = [await watcher.expect("move_made", ply=ply) for ply in range(6, len(WHITE_WINS))]
        assert [event["move"] for event in seen] == list(WHITE_WINS[6:])
        over = await watcher.expect("game_over")
        assert (over["result"]["winner"], over["result"]["reason"]) == (0, "network")
        await close_all([white, black, watcher])
        record = await get_json(f"{served.http_url}/api/games/{room_id}")
        assert isinstance(record, dict)
        assert record["status"] == "finished"
        assert len(record["moves"]) == len(WHITE_WINS)


async def test_a_game_goes_on_after_the_server_is_stopped(tmp_path: Path, server_db: str) -> None:
    with serve(server_db, "--ai-workers", "0", logs=tmp_path) as served:
        white, black = await connect(served.ws_url, "ada"), await connect(served.ws_url, "bob")
        room_id, _, _ = await start_game(white, black)
        for ply, text in enumerate(WHITE_WINS[:7]):
            await play((white, black)[ply % 2], room_id, text, ply)
        tokens = (white.token, black.token)
        seen = max(event.get("seq", 0) for event in black.received)
        await close_all([white, black])
    with serve(server_db, "--ai-workers", "0", logs=tmp_path) as served:
        white = await connect(served.ws_url, "ada", tokens[0])
        black = await connect(served.ws_url, "bob", tokens[1])
        await white.send({"type": "resume", "room_id": room_id, "after_seq": seen})
        await black.send({"type": "resume", "room_id": room_id, "after_seq": seen})
        snapshot = await white.expect("room_snapshot", "player_connected", room_id=room_id)
        if snapshot["type"] == "room_snapshot":
            assert snapshot["position"]["ply"] == 7
        for ply in range(7, len(WHITE_WINS)):
            await play((white, black)[ply % 2], room_id, WHITE_WINS[ply], ply)
        over = await black.expect("game_over", room_id=room_id)
        assert over["result"]["winner"] == 0
        await close_all([white, black])


async def play_against_ai(client: Client, room_id: str, side: int, until_ply: int) -> Message:
    """Play the first legal move on ``client``'s turns up to ``until_ply`` or the end;
    the last event seen (a snapshot counts as one, as after a resume)."""
    while True:
        event = await client.expect("room_snapshot", "move_made", "game_over", room_id=room_id)
        if event["type"] == "game_over" or event["position"]["ply"] >= until_ply:
            return event
        if event["position"]["to_move"] == side and event["legal_moves"]:
            ply = event["position"]["ply"]
            move = event["legal_moves"][0]
            await client.send({"type": "move", "room_id": room_id, "move": move, "ply": ply})


async def test_an_ai_game_survives_a_crash_and_the_ai_answers(
    tmp_path: Path, server_db: str
) -> None:
    seek = {
        "type": "seek",
        "id": "ai",
        "game": "network",
        "options": {"max_plies": 30},
        "opponent": {"kind": "ai", "level": 2},
        "side": 1,
    }
    with serve(server_db, "--ai-workers", "1", stop=signal.SIGKILL, logs=tmp_path) as served:
        human = await connect(served.ws_url, "ada")
        await human.send(seek)
        room_id = (await human.expect("room_snapshot", reply_to="ai"))["room_id"]
        last = await play_against_ai(human, room_id, side=1, until_ply=6)
        assert last["position"]["ply"] == 6
        token = human.token
        seen = max(event.get("seq", 0) for event in human.received)
        await human.close()
    with serve(server_db, "--ai-workers", "1", logs=tmp_path) as served:
        human = await connect(served.ws_url, "ada", token)
        await human.send({"type": "resume", "room_id": room_id, "after_seq": seen})
        over = await play_against_ai(human, room_id, side=1, until_ply=10_000)
        assert over["type"] == "game_over"
        assert over["result"]["reason"] in {"network", "max_plies"}
        record = await get_json(f"{served.http_url}/api/games/{room_id}")
        assert isinstance(record, dict)
        assert record["status"] == "finished"
        await human.close()
