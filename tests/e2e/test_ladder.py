"""The ladder end to end: bots of clearly different strength, each a ``gamut bot`` process
with its account's token, climb a pool on a real ``gamut serve``; a bot that drops loses
its game and re-enters when it returns; a restart keeps accounts and ratings."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.served import Served, serve

pytestmark = pytest.mark.timeout(290)

POOL = "crusher-quick"

GRACE_S = 1.5
"""Seconds a dropped ladder bot has to come back (the pool file's ``grace_ms``)."""

BOTS = {"flail": "random", "novice": "ai:1", "steady": "ai:2", "sharp": "ai:4"}
"""Four bots, weakest first: a random mover and the engine at levels 1, 2 and 4."""

MAX_GAMES = 400
"""The test fails if the standings have not separated after this many games."""


@pytest.fixture
def ladder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ladder file with one quick Crusher pool and no AI anchors, in ``GAMUT_LADDER``."""
    path = tmp_path / "ladder.json"
    pool = {
        "pool": POOL,
        "game": "crusher",
        "options": {"n": 3},
        "time_control": {"kind": "per_move", "move_ms": 3000},
        "anchors": [],
    }
    grace_ms = round(GRACE_S * 1000)
    ladder = {"pools": [pool], "tick_ms": 50, "grace_ms": grace_ms, "seed": 1}
    path.write_text(json.dumps(ladder))
    monkeypatch.setenv("GAMUT_LADDER", str(path))
    return path


def request(served: Served, method: str, path: str, body: Any = None) -> Any:
    """One HTTP request to the server; its JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    call = urllib.request.Request(served.http_url + path, data, headers, method=method)
    with urllib.request.urlopen(call, timeout=30) as answer:
        return json.loads(answer.read())


def register(served: Served, name: str) -> str:
    """Register ``name``; its token."""
    return str(request(served, "POST", "/api/accounts", {"name": name})["token"])


@contextmanager
def bot(
    served: Served, spec: str, name: str, token: str, log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """``gamut bot SPEC --ladder POOL`` as its own process, killed at the end."""
    command = [
        sys.executable,
        "-m",
        "gamut_client.commands.bot",
        spec,
        "--server",
        served.ws_url,
        "--name",
        name,
        "--token",
        token,
        "--ladder",
        POOL,
    ]
    with log.open("ab") as output:
        process = subprocess.Popen(command, stdout=output, stderr=output)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


def standings(served: Served) -> list[dict[str, Any]]:
    """The pool's standings rows."""
    return list(request(served, "GET", f"/api/ladder/{POOL}/standings")["standings"])


def settled_standings(served: Served, polls: int = 60) -> list[dict[str, Any]]:
    """The standings once two reads, a grace period and more apart, agree: a game whose
    player has gone ends (abandoned) and is rated within the grace period, while one
    whose two players have both gone waits far longer than the test."""
    previous = standings(served)
    for _ in range(polls):
        time.sleep(2 * GRACE_S)
        rows = standings(served)
        if rows == previous:
            return rows
        previous = rows
    raise AssertionError(f"the standings did not settle: {previous}")


def separated(rows: list[dict[str, Any]]) -> bool:
    """Whether the bots stand weakest to strongest with no overlap of rating ± uncertainty."""
    by_name = {row["name"]: row for row in rows}
    if set(by_name) != set(BOTS) or any(row["games"] == 0 for row in rows):
        return False
    bands = [
        (by_name[n]["mu"] - by_name[n]["sigma"], by_name[n]["mu"] + by_name[n]["sigma"])
        for n in BOTS
    ]
    return all(weaker[1] < stronger[0] for weaker, stronger in pairwise(bands))


def wait_for(check: Any, served: Served, what: str, polls: int = 600) -> Any:
    """Poll ``check(served)`` until it returns something true (bounded by ``polls``)."""
    for _ in range(polls):
        found = check(served)
        if found:
            return found
        time.sleep(0.25)
    raise AssertionError(f"never saw {what}")


@pytest.mark.slow
def test_four_bots_climb_to_the_order_of_their_strength(tmp_path: Path, ladder: Path) -> None:
    db = tmp_path / "gamut.sqlite3"
    with serve(db, "--ai-workers", "0") as served:
        tokens = {name: register(served, name) for name in BOTS}
        with ExitStack() as bots:
            for name, spec in BOTS.items():
                bots.enter_context(bot(served, spec, name, tokens[name], tmp_path / f"{name}.log"))
            games = 0
            while not separated(rows := standings(served)):
                games = sum(row["games"] for row in rows) // 2
                assert games < MAX_GAMES, rows
                time.sleep(1)
        ranked = [row["name"] for row in rows]
        assert ranked == list(reversed(BOTS))
        assert [row["rank"] for row in rows] == [1, 2, 3, 4]
        table = request(served, "GET", f"/api/ladder/{POOL}/crosstable")
        assert table["names"] == ranked
        top = table["rows"][0]["results"]
        assert sum(cell["wins"] for cell in top if cell) > sum(
            cell["losses"] for cell in top if cell
        )
        # The bots are gone: a game one of them left ends (abandoned) and is rated, so
        # the restart is compared with the standings once they have settled.
        before = settled_standings(served)
    with serve(db, "--ai-workers", "0") as served:
        after = standings(served)
        assert [(r["name"], r["rating"], r["games"]) for r in after] == [
            (r["name"], r["rating"], r["games"]) for r in before
        ]
        assert request(served, "GET", "/api/ladder/pools")[0]["members"] == 4


def rated_loss_of(name: str) -> Any:
    """A check: ``name``'s standings row once it shows a loss."""

    def check(served: Served) -> dict[str, Any] | None:
        row = {r["name"]: r for r in standings(served)}.get(name)
        return row if row is not None and row["losses"] >= 1 else None

    return check


def running_room_of(name: str) -> Any:
    """A check: the id of a running room where ``name`` plays."""

    def check(served: Served) -> str | None:
        for room in request(served, "GET", "/api/rooms"):
            names = [player["name"] for player in room["players"]]
            if room["status"] == "running" and name in names and room["ply"] >= 2:
                return str(room["room_id"])
        return None

    return check


@pytest.mark.slow
def test_a_bot_that_drops_loses_its_game_and_returns_to_the_queue(
    tmp_path: Path, ladder: Path
) -> None:
    with serve(tmp_path / "gamut.sqlite3", "--ai-workers", "0") as served:
        tokens = {name: register(served, name) for name in ("slow", "quick")}
        with bot(served, "ai:4", "quick", tokens["quick"], tmp_path / "quick.log"):
            with bot(served, "ai:4", "slow", tokens["slow"], tmp_path / "slow.log") as slow:
                room_id = wait_for(running_room_of("slow"), served, "a game of slow")
                slow.send_signal(signal.SIGKILL)
                slow.wait(timeout=30)

            def finished(served: Served) -> Any:
                record = request(served, "GET", f"/api/games/{room_id}")
                return record if record["status"] == "finished" else None

            record = wait_for(finished, served, "the dropped game's end")
            loser = [p["name"] for p in record["players"]].index("slow")
            assert record["result"]["reason"] == "abandoned"
            assert record["result"]["winner"] == 1 - loser
            # the game is rated just after it ends
            wait_for(rated_loss_of("slow"), served, "slow's loss in the standings")
            with bot(served, "ai:4", "slow", tokens["slow"], tmp_path / "slow.log"):
                again = wait_for(running_room_of("slow"), served, "slow back in a game")
                assert again != room_id


def members(served: Served) -> int:
    """How many bots the pool lists as members."""
    return int(request(served, "GET", "/api/ladder/pools")[0]["members"])


@pytest.mark.slow
def test_a_ladder_bot_reports_each_game_and_leaves_the_pool_when_stopped(
    tmp_path: Path, ladder: Path
) -> None:
    with serve(tmp_path / "gamut.sqlite3", "--ai-workers", "0") as served:
        tokens = {name: register(served, name) for name in ("tess", "uma")}
        log = tmp_path / "tess.log"
        with bot(served, "random", "uma", tokens["uma"], tmp_path / "uma.log"):
            with bot(served, "random", "tess", tokens["tess"], log) as tess:

                def reported(served: Served) -> list[str]:
                    text = log.read_text(encoding="utf-8", errors="replace")
                    return re.findall(r"^\S+ Crusher.*: (?:won|lost|drawn) \(", text, re.M)

                wait_for(reported, served, "a line for a finished game, while the bot plays on")
                assert tess.poll() is None
                assert members(served) == 2
                tess.send_signal(signal.SIGINT)
                assert tess.wait(timeout=60) == 0
            assert wait_for(lambda served: members(served) == 1, served, "tess gone from the pool")
