"""SDK bots (``gamut bot --tournament ID`` processes) through a whole round robin and a
whole arena on a real server, the standings checked against the stored games."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from gamut_server.tournaments_live.http import TOURNAMENTS
from tests.client.processes import REPO
from tests.server.live import live_server, server_config
from tests.server.test_ladder_server import http, register
from tests.server.test_tournaments import check_standings_against_stored_games, details

GAME = {"game": "connect5", "options": {"size": 9}}
CLOCK = {"kind": "per_move", "move_ms": 5000}


@pytest.fixture
async def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[TestServer]:
    """A live server whose tournament director looks every 50 ms."""
    monkeypatch.setenv("GAMUT_TOURNAMENT_TICK_MS", "50")
    async with live_server(server_config(tmp_path)) as running:
        yield running


@contextmanager
def bots(server: TestServer, tokens: dict[str, str], tournament: str) -> Iterator[None]:
    """A ``gamut bot random`` process for each account, entering ``tournament``."""
    url = str(server.make_url("/ws"))
    processes = []
    for name, token in tokens.items():
        command = [sys.executable, "-m", "gamut_client.cli", "bot", "random", "--server", url]
        command += ["--name", name, "--token", token, "--tournament", tournament, "--no-save"]
        processes.append(
            subprocess.Popen(
                command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        )
    try:
        yield
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)


async def accounts(server: TestServer, *names: str) -> dict[str, str]:
    return {name: await register(server, name) for name in names}


async def create(server: TestServer, token: str, account: str, **settings: Any) -> str:
    body = {"account": account, "time_control": CLOCK, **GAME, **settings}
    status, answer = await http(server, "POST", "/api/tournaments", token, **body)
    assert status == 201, answer
    return str(answer["id"])


async def until(
    server: TestServer, tournament: str, done: Any, seconds: float = 120
) -> dict[str, Any]:
    """The tournament's details once ``done(details)`` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        body = await details(server, tournament)
        if done(body):
            return body
        await asyncio.sleep(0.05)
    raise AssertionError(f"not reached in {seconds} s: {body}")


def shift_clock(server: TestServer, hours: float) -> None:
    server.app[TOURNAMENTS].wall = lambda: datetime.now(UTC) + timedelta(hours=hours)


async def test_sdk_bots_play_a_whole_round_robin(server: TestServer) -> None:
    tokens = await accounts(server, "ada", "bob", "cyd")
    tid = await create(server, tokens["ada"], "ada", kind="round_robin", starts_in=3600)
    with bots(server, tokens, tid):
        await until(server, tid, lambda body: body["players"] == 3)
        shift_clock(server, 2)
        final = await until(server, tid, lambda body: body["status"] == "finished")
    games = final["games"]
    assert len(games) == 6  # three players: every pair twice, once with each colour
    assert {game["status"] for game in games} == {"finished"}
    pairs = [(game["first"], game["second"]) for game in games]
    assert sorted(pairs) == sorted((a, b) for a in tokens for b in tokens if a != b)
    assert all(line["games"] == 4 for line in final["standings"])
    await check_standings_against_stored_games(server, final)


async def test_sdk_bots_play_a_whole_arena(server: TestServer) -> None:
    tokens = await accounts(server, "ada", "bob", "cyd", "dee")
    tid = await create(server, tokens["ada"], "ada", kind="arena", minutes=60)
    with bots(server, tokens, tid):
        await until(
            server, tid, lambda body: sum(g["status"] == "finished" for g in body["games"]) >= 8
        )
        shift_clock(server, 2)
        final = await until(server, tid, lambda body: body["status"] == "finished")
    games = final["games"]
    assert {game["status"] for game in games} == {"finished"}
    for wave in {game["round"] for game in games}:
        seated = [n for g in games if g["round"] == wave for n in (g["first"], g["second"])]
        assert len(seated) == len(set(seated))  # nobody plays two games of one pairing
    assert {line["name"] for line in final["standings"] if line["games"]} == set(tokens)
    await check_standings_against_stored_games(server, final)


def gamut(server: TestServer, *args: str) -> subprocess.CompletedProcess[str]:
    """``gamut tournaments ARGS`` against ``server``, run for real."""
    command = [sys.executable, "-m", "gamut_client.commands.tournaments"]
    command += ["--server", str(server.make_url("/ws")), *args]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60)


async def test_the_terminal_creates_lists_enters_and_shows_tournaments(
    server: TestServer, tmp_path: Path
) -> None:
    tokens = await accounts(server, "ada", "bob")
    openings = tmp_path / "openings.txt"
    openings.write_text("# two openings\nh8 h9 i8\ng7 g8  # near even\n")
    signed = ("--account", "ada", "--token", tokens["ada"])
    made = await asyncio.to_thread(
        gamut,
        server,
        *signed,
        "create",
        "connect5",
        "-o",
        "size=9",
        "--kind",
        "round_robin",
        "--starts-in",
        "600",
        "--name",
        "Evening cup",
        "--openings",
        str(openings),
    )
    assert made.returncode == 0, made.stderr
    tid = made.stdout.split("(")[1].split(")")[0]
    joined = await asyncio.to_thread(gamut, server, *signed, "join", tid)
    assert joined.returncode == 0, joined.stderr
    assert "ada entered Evening cup" in joined.stdout
    unsigned = await asyncio.to_thread(gamut, server, "--account", "bob", "join", tid)
    assert unsigned.returncode == 1
    assert "token" in unsigned.stderr
    listed = await asyncio.to_thread(gamut, server)
    upcoming = listed.stdout.split("Upcoming:")[1].split("Finished:")[0]
    assert f"{tid}  Evening cup (round robin, connect5)" in upcoming
    assert "1 players" in upcoming
    shown = await asyncio.to_thread(gamut, server, "show", tid)
    assert shown.returncode == 0, shown.stderr
    status, body = await http(server, "GET", f"/api/tournaments/{tid}")
    assert status == 200
    assert body["openings"] == 2
    assert shown.stdout.splitlines()[3].split()[:3] == ["1", "ada", "0"]
    missing = await asyncio.to_thread(gamut, server, "show", "nosuchone")
    assert missing.returncode == 1
    assert "no tournament has the id 'nosuchone'" in missing.stderr
