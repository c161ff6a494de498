"""The analysis over HTTP on a live server (SQLite and PostgreSQL): asked for, followed,
served to everyone, carried by the export; refusals say why."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from gamut_server import keys
from gamut_server.analyses.rules import AnalysisRules
from gamut_server.rooms.limits import Rate
from tests.server.analysis_games import BLUNDER_GAME, store_game
from tests.server.live import live_server, server_config

RULES = AnalysisRules(nice=0, work=300, per_address=Rate(capacity=2, per_second=1 / 3600))
"""Little work a position, the server's own priority (see test_analysis_service), and two
new analyses an address."""

WAIT_S = 120.0


@pytest.fixture
async def server(tmp_path: Path, server_db: str) -> AsyncIterator[TestServer]:
    async with live_server(server_config(tmp_path, db=server_db, analyses=RULES)) as running:
        yield running


async def call(server: TestServer, method: str, path: str, **options: Any) -> tuple[int, Any]:
    """One request; its status and JSON body."""
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, server.make_url(path), **options) as response,
    ):
        return response.status, await response.json()


async def done(server: TestServer, game_id: str) -> dict[str, Any]:
    """The analysis of ``game_id`` once the server has finished it."""
    async with asyncio.timeout(WAIT_S):
        while True:
            status, body = await call(server, "GET", f"/api/games/{game_id}/analysis")
            assert status == 200
            assert body["status"] != "failed", body
            if body["status"] == "done":
                report: dict[str, Any] = body
                return report
            await asyncio.sleep(0.2)


async def test_an_analysis_is_asked_for_followed_and_served_to_everyone(
    server: TestServer,
) -> None:
    game_id = await store_game(server.app[keys.STORE], BLUNDER_GAME)
    path = f"/api/games/{game_id}/analysis"
    status, body = await call(server, "GET", path)
    assert (status, body["error"]) == (404, "no_analysis")
    assert f"POST /api/games/{game_id}/analysis" in body["message"]
    status, body = await call(server, "POST", path)
    assert status == 202
    assert body["status"] in ("queued", "running")
    assert body["total"] == len(BLUNDER_GAME) + 1
    report = await done(server, game_id)
    assert [ply["move"] for ply in report["plies"]] == BLUNDER_GAME
    blunder = report["plies"][6]
    assert blunder["mark"] == "blunder"
    assert blunder["best"]["move"] in ("b3", "f3")
    assert blunder["after"]["winner"] == 1
    assert report["summary"][0]["blunders"] >= 1
    status, again = await call(server, "POST", path)
    assert (status, again) == (200, report)
    async with (
        aiohttp.ClientSession() as http,
        http.get(server.make_url(f"/api/games/{game_id}/export")) as response,
    ):
        text = await response.text()
    assert '[Analysis "300 work a position"]' in text
    assert "7. m13 {0.100s} {eval #-2 (0%); blunder, " in text


async def test_refusals_say_why(server: TestServer) -> None:
    store = server.app[keys.STORE]
    running = await store_game(store, BLUNDER_GAME[:3], result=None)
    status, body = await call(server, "POST", f"/api/games/{running}/analysis")
    assert (status, body["error"]) == (409, "game_running")
    assert body["message"] == f"game {running} is still being played: ask once it has ended"
    status, body = await call(server, "POST", "/api/games/nosuchgame/analysis")
    assert (status, body["error"]) == (404, "unknown_game_id")
    status, body = await call(server, "GET", "/api/games/nosuchgame/analysis")
    assert (status, body["message"]) == (404, "no game has the id 'nosuchgame'")
    games = [await store_game(store, BLUNDER_GAME[:moves]) for moves in (4, 5, 6)]
    for game_id in games[:2]:
        status, _ = await call(server, "POST", f"/api/games/{game_id}/analysis")
        assert status == 202
    status, body = await call(server, "POST", f"/api/games/{games[2]}/analysis")
    assert (status, body["error"]) == (429, "rate_limited")
    assert body["message"].startswith("your address has asked for 2 analyses lately")


async def test_a_request_signed_with_an_account_is_proved(server: TestServer) -> None:
    game_id = await store_game(server.app[keys.STORE], BLUNDER_GAME[:4])
    path = f"/api/games/{game_id}/analysis"
    status, account = await call(server, "POST", "/api/accounts", json={"name": "zoe"})
    assert status == 201
    wrong = {"Authorization": "Bearer not-her-token"}
    status, body = await call(server, "POST", path, json={"account": "zoe"}, headers=wrong)
    assert (status, body["error"]) == (401, "bad_token")
    status, body = await call(server, "POST", path, headers=wrong)
    assert (status, body["message"]) == (
        401,
        'sign with Authorization: Bearer TOKEN and {"account": NAME}',
    )
    right = {"Authorization": f"Bearer {account['token']}"}
    status, body = await call(server, "POST", path, json={"account": "zoe"}, headers=right)
    assert status == 202
    await done(server, game_id)
