"""Ladder speed: a pool of many bots paired continuously by a real ``gamut serve``.

The benchmark starts ``gamut serve`` in its own process (SQLite in a temporary folder,
no AI workers) with one quick pool, registers ``--bots`` accounts over HTTP, runs each
as an SDK bot (random moves, so the server does the work) that joins the pool, lets
them play for ``--seconds``, then prints:

- rated games finished per minute;
- pairing latency: how long a player waited in the queue before it was paired
  (p50, p90, p99, max, from the queue history the server stores);
- the standings' spread (games per bot), to show everyone plays.

Usage: ``python bench/ladder.py [--bots 32] [--seconds 60] [--game crusher]``.
Only loopback addresses are used and every run is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from statistics import quantiles
from typing import Any

from gamut_client.bots.base import PlayerBot
from gamut_client.bots.plan import Plan
from gamut_client.bots.runner import BotRunner
from gamut_client.connection import connect
from gamut_server.storage import Store

POOL = "bench"

GAMES = {"crusher": {"n": 3}, "connect5": {"size": 9}, "network": {}, "loa": {"size": 6}}
"""The games a pool may play, with their options."""


def ladder_file(folder: Path, game: str) -> Path:
    """A ladder with one pool of ``game`` at 2 s a move and no anchors."""
    pool = {
        "pool": POOL,
        "game": game,
        "options": GAMES[game],
        "time_control": {"kind": "per_move", "move_ms": 2000},
        "anchors": [],
    }
    path = folder / "ladder.json"
    path.write_text(json.dumps({"pools": [pool], "tick_ms": 100, "seed": 1}))
    return path


def start_server(folder: Path, ladder: Path) -> tuple[subprocess.Popen[str], str]:
    """``gamut serve`` on a free loopback port; the process and its WebSocket URL."""
    command = [
        sys.executable,
        "-m",
        "gamut_server",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--db",
        str(folder / "gamut.sqlite3"),
        "--ai-workers",
        "0",
        "--quiet",
    ]
    env = {**__import__("os").environ, "GAMUT_LADDER": str(ladder)}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    found = re.search(r"connect to (ws://\S+/ws)", process.stdout.readline())
    if found is None:
        process.kill()
        raise SystemExit("the server did not start")
    return process, found.group(1)


def http(ws_url: str, method: str, path: str, body: Any = None) -> Any:
    """One JSON request to the server."""
    base = "http" + ws_url.removeprefix("ws").removesuffix("/ws")
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data, {"Content-Type": "application/json"}, method=method
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


async def run_bot(ws_url: str, name: str, token: str, stop: asyncio.Event) -> None:
    """One random bot in the pool until ``stop`` is set."""
    async with connect(ws_url, name, kind="bot", token=token, lobby=False) as connection:
        runner = BotRunner(PlayerBot("random"), connection, Plan(ladder=POOL))
        playing = asyncio.create_task(runner.run())
        await stop.wait()
        runner.stop()
        await playing


async def play(ws_url: str, bots: int, seconds: float) -> None:
    """Register ``bots`` accounts and let them play for ``seconds``."""
    tokens = {}
    for number in range(bots):
        name = f"bench-{number:03d}"
        tokens[name] = (
            await asyncio.to_thread(http, ws_url, "POST", "/api/accounts", {"name": name})
        )["token"]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(run_bot(ws_url, n, t, stop)) for n, t in tokens.items()]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.wait(tasks, timeout=30)


async def latencies(db: Path) -> list[int]:
    """Every pairing's wait, from the queue history."""
    async with await Store.open(str(db)) as store:
        events = await store.queue_events(POOL)
    return [
        event.wait_ms for event in events if event.event == "paired" and event.wait_ms is not None
    ]


def report(args: argparse.Namespace, rows: list[dict[str, Any]], waits: list[int]) -> None:
    """Print the figures."""
    games = sum(row["games"] for row in rows) // 2
    print(f"pool: {args.game} at 2 s a move, {args.bots} random bots, {args.seconds:g} s")
    print(f"rated games finished: {games} ({games * 60 / args.seconds:.1f} a minute)")
    if len(waits) >= 2:
        p50, p90, p99 = (quantiles(waits, n=100)[i] for i in (49, 89, 98))
        print(
            f"pairing latency over {len(waits)} pairings: p50 {p50:.0f} ms, p90 {p90:.0f} ms, "
            f"p99 {p99:.0f} ms, max {max(waits)} ms"
        )
    per_bot = sorted(row["games"] for row in rows)
    if per_bot:
        print(
            f"games per bot: min {per_bot[0]}, median {per_bot[len(per_bot) // 2]}, "
            f"max {per_bot[-1]}"
        )


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--game", choices=sorted(GAMES), default="connect5")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gamut-ladder-bench-") as name:
        folder = Path(name)
        server, ws_url = start_server(folder, ladder_file(folder, args.game))
        try:
            asyncio.run(play(ws_url, args.bots, args.seconds))
            rows = http(ws_url, "GET", f"/api/ladder/{POOL}/standings")["standings"]
        finally:
            server.terminate()
            server.wait(timeout=30)
        report(args, rows, asyncio.run(latencies(folder / "gamut.sqlite3")))


if __name__ == "__main__":
    main()
