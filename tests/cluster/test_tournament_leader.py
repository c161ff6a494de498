"""A round robin on three nodes whose director (the node leading the lobby) is killed
mid-tournament: the next leader carries on from the store and the tournament finishes,
every game played once and the standings matching the stored games. A tournament started
through a node that does not direct wakes the director on the leader."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.nodes import get_json, leading, post_json, three_nodes
from tests.server.live import Client, close_all
from tests.server.test_tournaments import play_through

CLOCK = {"kind": "per_move", "move_ms": 30000}


@pytest.fixture(autouse=True)
def quick_director(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nodes whose director looks every 100 ms."""
    monkeypatch.setenv("GAMUT_TOURNAMENT_TICK_MS", "100")


async def test_a_round_robin_outlives_the_node_that_directed_it(tmp_path: Path) -> None:
    async with three_nodes(tmp_path) as nodes:
        await _through_the_leaders_death(nodes)


async def _through_the_leaders_death(nodes: list[Any]) -> None:
    leader = await leading(nodes)
    others = [served for served in nodes if served is not leader]
    tokens = {}
    for name in ("ada", "bob", "cyd"):
        status, body = post_json(others[0], "/api/accounts", {"name": name})
        assert status == 201, body
        tokens[name] = body["token"]
    clients = []
    for index, name in enumerate(tokens):
        client = await Client.connect(others[index % 2].ws_url)
        await client.hello(name, token=tokens[name], kind="bot", protocol=6, lobby=False)
        clients.append(client)
    made = await _post(
        others[1],
        "/api/tournaments",
        tokens["ada"],
        "ada",
        kind="round_robin",
        game="connect5",
        options={"size": 9},
        time_control=CLOCK,
        starts_in=600,
    )
    tid = made["id"]
    try:
        for client in clients:
            await client.send({"type": "join_tournament", "id": "j", "tournament": tid})
            assert (await client.expect("tournament_status", reply_to="j"))["joined"]
        players = [asyncio.create_task(play_through(client, tid)) for client in clients]
        await _post(others[0], f"/api/tournaments/{tid}/start", tokens["ada"], "ada")
        await _until(others[0], tid, lambda body: _finished(body) >= 2)
        os.kill(leader.process.pid, signal.SIGKILL)
        leader.process.wait()
        final = await _until(others[0], tid, lambda body: body["status"] == "finished", 90)
        await asyncio.wait_for(asyncio.gather(*players), 60)
    finally:
        await close_all(clients)
    games = final["games"]
    assert len(games) == 6
    assert {game["status"] for game in games} == {"finished"}
    assert len({game["game_id"] for game in games}) == 6
    points = dict.fromkeys(tokens, 0.0)
    for game in games:
        stored = get_json(others[0], f"/api/games/{game['game_id']}")
        assert stored["result"]["winner"] == game["winner"]
        points[(game["first"], game["second"])[game["winner"]]] += 1
    assert {line["name"]: line["points"] for line in final["standings"]} == points


async def test_a_tournament_started_on_another_node_wakes_the_director(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMUT_TOURNAMENT_TICK_MS", "3600000")  # no look but those woken
    async with three_nodes(tmp_path) as nodes:
        leader = await leading(nodes)
        elsewhere = next(served for served in nodes if served is not leader)
        tokens = {}
        clients = []
        try:
            for name in ("ada", "bob"):
                status, body = post_json(elsewhere, "/api/accounts", {"name": name})
                assert status == 201, body
                tokens[name] = body["token"]
                client = await Client.connect(elsewhere.ws_url)
                await client.hello(name, token=body["token"], kind="bot", protocol=6, lobby=False)
                clients.append(client)
            made = await _post(
                elsewhere, "/api/tournaments", tokens["ada"], "ada",
                kind="round_robin", game="connect5", time_control=CLOCK, starts_in=600,
            )  # fmt: skip
            for client in clients:
                await client.send({"type": "join_tournament", "id": "j", "tournament": made["id"]})
                assert (await client.expect("tournament_status", reply_to="j"))["joined"]
            await _post(elsewhere, f"/api/tournaments/{made['id']}/start", tokens["ada"], "ada")
            await _until(elsewhere, made["id"], lambda body: body["status"] == "running")
            for client in clients:
                await client.expect("room_snapshot", timeout=60)
        finally:
            await close_all(clients)


def _finished(body: dict[str, Any]) -> int:
    return sum(game["status"] == "finished" for game in body["games"])


async def _post(served: Any, path: str, token: str, account: str, **body: Any) -> Any:
    data = json.dumps({"account": account, **body}).encode()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    request = urllib.request.Request(served.http_url + path, data, headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


async def _until(served: Any, tid: str, done: Any, seconds: float = 60) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    body: dict[str, Any] = {}
    while loop.time() < deadline:
        body = await asyncio.to_thread(get_json, served, f"/api/tournaments/{tid}")
        if done(body):
            return body
        await asyncio.sleep(0.1)
    raise AssertionError(f"not reached in {seconds} s: {body}")
