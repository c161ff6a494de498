"""The ladder on a live server: accounts over HTTP, signing in, rated pairing, ratings
shown after each game, timeouts, drops and returns, standings, and a restart."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from gamut_server.storage import Store
from tests.server.live import (
    WHITE_WINS,
    Client,
    close_all,
    connect,
    live_server,
    play,
    server_config,
)

POOLS = {
    "tick_ms": 20,
    "grace_ms": 400,
    "seed": 3,
    "pools": [
        {
            "pool": "net",
            "game": "network",
            "time_control": {"kind": "per_move", "move_ms": 30000},
            "anchors": [],
        },
        {
            "pool": "fast",
            "game": "network",
            "time_control": {"kind": "per_move", "move_ms": 300},
            "anchors": [],
        },
    ],
}


@pytest.fixture
def ladder_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ladder file with a slow and a fast Network pool, named in ``GAMUT_LADDER``."""
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(POOLS))
    monkeypatch.setenv("GAMUT_LADDER", str(path))
    return path


@pytest.fixture
async def server(tmp_path: Path, ladder_file: Path) -> AsyncIterator[TestServer]:
    """A live server with the test pools."""
    async with live_server(server_config(tmp_path)) as running:
        yield running


async def http(
    server: TestServer, method: str, path: str, token: str | None = None, **body: Any
) -> tuple[int, Any]:
    """One HTTP request: its status and JSON answer."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with aiohttp.ClientSession() as session:
        url = str(server.make_url(path))
        async with session.request(method, url, json=body or None, headers=headers) as answer:
            return answer.status, await answer.json()


async def register(server: TestServer, name: str) -> str:
    """Register ``name`` and return its token."""
    status, body = await http(server, "POST", "/api/accounts", name=name)
    assert status == 201, body
    return str(body["token"])


async def bot(server: TestServer, name: str, token: str) -> Client:
    """A bot signed in as ``name``."""
    return await connect(server, name, token=token, kind="bot", lobby=False)


async def join(client: Client, pool: str = "net") -> dict[str, Any]:
    """Join ``pool``; its ``ladder_status``."""
    await client.send({"type": "join_ladder", "id": "j", "pool": pool})
    return await client.expect("ladder_status", "error", reply_to="j")


async def paired(*clients: Client) -> tuple[str, dict[int, Client]]:
    """Wait until the clients are paired: the room and the client on each side."""
    snapshots = [await client.expect("room_snapshot") for client in clients]
    assert len({snapshot["room_id"] for snapshot in snapshots}) == 1
    assert all(snapshot["rated"] for snapshot in snapshots)
    assert all(isinstance(seat["rating"], int) for seat in snapshots[0]["players"])
    sides = {
        snapshot["your_side"]: client for snapshot, client in zip(snapshots, clients, strict=True)
    }
    return snapshots[0]["room_id"], sides


async def test_register_sign_in_reissue_and_revoke(server: TestServer) -> None:
    token = await register(server, "deep")
    assert token.startswith("gamut_")
    assert (await http(server, "POST", "/api/accounts", name="deep"))[0] == 409
    assert (await http(server, "POST", "/api/accounts", name="-bad"))[0] == 400
    assert (await http(server, "POST", "/api/accounts", name="ai-3"))[0] == 400
    welcome = (await bot(server, "deep", token)).received[0]
    assert welcome["guest"] is False
    assert "token" not in welcome
    stranger = await connect(server)
    await stranger.send({"type": "hello", "name": "deep", "id": 1})
    assert (await stranger.expect("error"))["code"] == "name_taken"
    await stranger.send({"type": "hello", "name": "deep", "token": "gamut_wrong", "id": 2})
    refusal = await stranger.expect("error")
    assert refusal["code"] == "bad_token"
    assert "not the token" in refusal["message"]
    status, body = await http(server, "POST", "/api/accounts/deep/token", token=token)
    assert status == 200
    new_token = body["token"]
    assert (await http(server, "POST", "/api/accounts/deep/token", token=token))[0] == 401
    await stranger.send({"type": "hello", "name": "deep", "token": token, "id": 3})
    assert (await stranger.expect("error"))["code"] == "bad_token"
    assert (await http(server, "DELETE", "/api/accounts/deep/token", token=new_token))[0] == 200
    await stranger.send({"type": "hello", "name": "deep", "token": new_token, "id": 4})
    assert "revoked" in (await stranger.expect("error"))["message"]
    assert (await http(server, "DELETE", "/api/accounts/nobody/token", token="x"))[0] == 404
    await close_all([stranger])


async def test_guests_and_unknown_pools_are_refused(server: TestServer) -> None:
    guest = await connect(server, "visitor")
    assert (await join(guest))["code"] == "not_authenticated"
    member = await bot(server, "deep", await register(server, "deep"))
    assert (await join(member, "chess"))["code"] == "unknown_pool"
    await close_all([guest, member])


async def test_paired_games_are_rated_and_the_players_queue_again(server: TestServer) -> None:
    ann = await bot(server, "ann", await register(server, "ann"))
    bob = await bot(server, "bob", await register(server, "bob"))
    status = await join(ann)
    assert (status["member"], status["pool"]) == (True, "net")
    await join(bob)
    room_id, sides = await paired(ann, bob)
    for ply, move in enumerate(WHITE_WINS):
        await play(sides[ply % 2], room_id, move, ply)
    for client in (ann, bob):
        over = await client.expect("game_over", room_id=room_id)
        assert over["result"]["winner"] == 0
        result = await client.expect("ladder_result", room_id=room_id)
        winner, loser = result["players"]
        assert winner["change"] > 0 > loser["change"]
        assert winner["rating"] > 1500 > loser["rating"]
    second_room, _ = await paired(ann, bob)
    assert second_room != room_id
    code, body = await http(server, "GET", "/api/ladder/net/standings")
    assert code == 200
    rows = body["standings"]
    winner_name = sides[0].name
    assert [row["name"] for row in rows] == [winner_name, sides[1].name]
    assert (rows[0]["rank"], rows[0]["wins"], rows[0]["games"], rows[1]["losses"]) == (1, 1, 1, 1)
    _, table = await http(server, "GET", "/api/ladder/net/crosstable")
    assert table["names"] == [winner_name, sides[1].name]
    assert table["rows"][0]["results"][1] == {"games": 1, "wins": 1, "draws": 0, "losses": 0}
    _, history = await http(server, "GET", f"/api/ladder/net/players/{winner_name}/history")
    (game,) = history["history"]
    assert (game["game_id"], game["opponent"], game["score"]) == (room_id, sides[1].name, 1.0)
    assert game["rating"] == rows[0]["rating"] > history["start"]["rating"]
    _, nobody = await http(server, "GET", "/api/ladder/net/players/nobody/history")
    assert nobody["history"] == []
    _, pools = await http(server, "GET", "/api/ladder/pools")
    net = next(pool for pool in pools if pool["pool"] == "net")
    assert (net["members"], net["playing"], net["games_started"]) == (2, 2, 2)
    assert (await http(server, "GET", "/api/ladder/nowhere/standings"))[0] == 404
    await close_all([ann, bob])


async def test_a_player_who_loses_on_time_leaves_the_queue_until_it_joins_again(
    server: TestServer,
) -> None:
    ann = await bot(server, "ann", await register(server, "ann"))
    bob = await bot(server, "bob", await register(server, "bob"))
    await join(ann, "fast")
    await join(bob, "fast")
    room_id, sides = await paired(ann, bob)
    over = await ann.expect("game_over", room_id=room_id)
    assert (over["result"]["reason"], over["result"]["winner"]) == ("timeout", 1)
    loser = sides[0]
    status = await loser.expect("ladder_status", member=False)
    assert status["pool"] == "fast"
    await loser.expect("ladder_result", room_id=room_id)
    assert (await join(loser, "fast"))["member"] is True
    again, _ = await paired(ann, bob)
    assert again != room_id
    await close_all([ann, bob])


async def test_a_player_who_drops_loses_and_comes_back_when_it_returns(
    server: TestServer,
) -> None:
    tokens = {name: await register(server, name) for name in ("ann", "bob")}
    ann = await bot(server, "ann", tokens["ann"])
    bob = await bot(server, "bob", tokens["bob"])
    await join(ann)
    await join(bob)
    room_id, sides = await paired(ann, bob)
    dropped, stayed = sides[0], sides[1]
    assert dropped.name is not None
    await dropped.close()
    over = await stayed.expect("game_over", room_id=room_id)
    assert (over["result"]["reason"], over["result"]["winner"]) == ("abandoned", 1)
    await stayed.expect("ladder_result", room_id=room_id)
    back = await bot(server, dropped.name, tokens[dropped.name])
    assert (await back.expect("ladder_status"))["member"] is True
    again, _ = await paired(back, stayed)
    assert again != room_id
    _, body = await http(server, "GET", "/api/ladder/net/standings")
    assert {row["name"]: row["losses"] for row in body["standings"]}[dropped.name] == 1
    await close_all([back, stayed])


async def test_a_restart_keeps_accounts_ratings_membership_and_the_queue_history(
    tmp_path: Path, ladder_file: Path, server_db: str
) -> None:
    config = server_config(tmp_path, db=server_db)
    async with live_server(config) as server:
        tokens = {name: await register(server, name) for name in ("ann", "bob")}
        ann = await bot(server, "ann", tokens["ann"])
        bob = await bot(server, "bob", tokens["bob"])
        await join(ann)
        await join(bob)
        room_id, sides = await paired(ann, bob)
        for ply, move in enumerate(WHITE_WINS):
            await play(sides[ply % 2], room_id, move, ply)
        await ann.expect("ladder_result", room_id=room_id)
        await bob.expect("ladder_result", room_id=room_id)
        _, before = await http(server, "GET", "/api/ladder/net/standings")
        unfinished, _ = await paired(ann, bob)
        await close_all([ann, bob])
    async with live_server(config) as server:
        _, after = await http(server, "GET", "/api/ladder/net/standings")
        assert [row["rating"] for row in after["standings"]] == [
            row["rating"] for row in before["standings"]
        ]
        assert [row["games"] for row in after["standings"]] == [1, 1]
        ann = await bot(server, "ann", tokens["ann"])
        bob = await bot(server, "bob", tokens["bob"])
        assert ann.received[0]["rooms"] == [unfinished]
        await ann.send({"type": "join", "room_id": unfinished, "role": "player"})
        await ann.expect("room_snapshot", room_id=unfinished)
        await ann.send({"type": "resign", "room_id": unfinished})
        result = await bob.expect("ladder_result", room_id=unfinished)
        _, record = await http(server, "GET", f"/api/games/{unfinished}")
        assert [p["name"] for p in result["players"]] == [p["name"] for p in record["players"]]
        assert (record["rated"], record["result"]["reason"]) == (True, "resign")
        await paired(ann, bob)
        _, standings = await http(server, "GET", "/api/ladder/net/standings")
        assert [row["games"] for row in standings["standings"]] == [2, 2]
        await close_all([ann, bob])
    async with await Store.open(config.db) as store:
        events = [e.event for e in await store.queue_events("net", name="ann")]
    assert events == ["join", *["queued", "paired"] * 3]


async def play_first_legal_moves(client: Client, room_id: str) -> dict[str, Any]:
    """Answer every turn of ``client`` in ``room_id`` with the first legal move; the
    ``game_over``."""
    snapshot = next(m for m in client.received if m.get("room_id") == room_id)
    side, position, legal = snapshot["your_side"], snapshot["position"], snapshot["legal_moves"]
    while True:
        if position["to_move"] == side and legal:
            await client.send(
                {"type": "move", "room_id": room_id, "move": legal[0], "ply": position["ply"]}
            )
        event = await client.expect("move_made", "game_over", room_id=room_id)
        if event["type"] == "game_over":
            return event
        position, legal = event["position"], event["legal_moves"]


async def test_the_ai_anchors_play_a_lone_member(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ladder.json"
    pool = {
        "pool": "crush",
        "game": "crusher",
        "options": {"n": 3},
        "time_control": {"kind": "per_move", "move_ms": 5000},
        "anchors": [1],
    }
    path.write_text(json.dumps({"pools": [pool], "tick_ms": 20}))
    monkeypatch.setenv("GAMUT_LADDER", str(path))
    async with live_server(server_config(tmp_path, ai_workers=1)) as server:
        ann = await bot(server, "ann", await register(server, "ann"))
        await join(ann, "crush")
        snapshot = await ann.expect("room_snapshot")
        names = [seat["name"] for seat in snapshot["players"]]
        assert sorted(names) == ["ai-1", "ann"]
        await play_first_legal_moves(ann, snapshot["room_id"])
        result = await ann.expect("ladder_result", room_id=snapshot["room_id"])
        assert [player["name"] for player in result["players"]] == names
        _, body = await http(server, "GET", "/api/ladder/crush/standings")
        rows = {row["name"]: row for row in body["standings"]}
        assert rows["ai-1"]["kind"] == "ai"
        assert rows["ai-1"]["games"] == rows["ann"]["games"] == 1
        await close_all([ann])


async def test_two_players_one_of_whom_blocked_the_other_are_never_paired(
    server: TestServer,
) -> None:
    ann, bob, cyd = [
        await connect(server, name, token=await register(server, name), kind="bot", protocol=6)
        for name in ("ann", "bob", "cyd")
    ]
    await ann.send({"type": "block", "id": "b", "name": "BOB"})
    assert (await ann.expect("blocks", reply_to="b"))["names"] == ["BOB"]
    await join(ann)
    await join(bob)
    await join(cyd)
    _, sides = await paired(ann, cyd)
    assert {client.name for client in sides.values()} == {"ann", "cyd"}
    _, pools = await http(server, "GET", "/api/ladder/pools")
    net = next(pool for pool in pools if pool["pool"] == "net")
    assert (net["playing"], net["waiting"]) == (2, 1)
    assert not any(m["type"] == "room_snapshot" for m in bob.received)
    await close_all([ann, bob, cyd])
