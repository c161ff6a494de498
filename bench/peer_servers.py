"""The other game servers the server benchmark compares Gamut with, written in Node.

``bench/peers/`` holds the same Connect Five 15×15 game written for boardgame.io 0.50
(in memory, and with its FlatFile storage) and for Colyseus 0.15, with load clients in
Node that play random legal moves as Gamut's bots do. Their packages are installed on
demand by :func:`install` (``npm ci`` in ``bench/peers``), never by the test run.

A run starts the peer's server, then its load clients (one Node process for all the
games), which say ``seated`` once every game has its first position; the benchmark then
opens the window by writing ``start`` to them and closes it with ``stop``, and they
answer with the moves their opponents received meanwhile and the p50 and p99 of the
time from sending a move to the opponent receiving it (one clock, in their process).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loadgen import Server, server_process

PEERS_DIR = Path(__file__).resolve().parent / "peers"
"""The Node package of the peers."""

SEATED_LIMIT_S = 60.0
"""Seconds the load clients may take to seat every game, and as many again per 250
games."""

NOT_SEATED = "not_seated"
"""The error of a run whose load clients did not seat every game in time."""


@dataclass(frozen=True)
class Peer:
    """One peer server as the benchmark runs it."""

    name: str
    """Its name in the table."""
    server: str
    """Its server's script in ``bench/peers``."""
    load: str
    """Its load clients' script there."""
    flatfile: bool = False
    """Whether the server keeps its matches in files (boardgame.io's FlatFile)."""


PEERS: dict[str, tuple[Peer, ...]] = {
    "boardgameio": (
        Peer("bgio", "bgio_server.js", "bgio_load.js"),
        Peer("bgio-ff", "bgio_server.js", "bgio_load.js", flatfile=True),
    ),
    "colyseus": (Peer("colyseus", "colyseus_server.js", "colyseus_load.js"),),
}
"""What ``--peer NAME`` measures."""


def install() -> None:
    """Install the peers' packages (pinned by ``package-lock.json``) unless they are."""
    if (PEERS_DIR / "node_modules" / ".package-lock.json").exists():
        return
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise SystemExit("--peer needs Node.js and npm on the PATH")
    print("installing the peers' packages (npm ci in bench/peers)…", flush=True)
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=PEERS_DIR, check=True)


def _node_env() -> dict[str, str]:
    """Node in production mode: boardgame.io logs every action otherwise."""
    return {**os.environ, "NODE_ENV": "production"}


async def run_peer(peer: Peer, games: int, seconds: float, settle: float) -> dict[str, Any]:
    """One run of ``peer`` with ``games`` games, measured for ``seconds``."""
    with tempfile.TemporaryDirectory() as folder:
        command = ["node", str(PEERS_DIR / peer.server)]
        if peer.flatfile:
            command += ["--flatfile", folder]
        async with server_process(command, r"connect to (\S+)", _node_env()) as server:
            return await _play(peer, server, games, seconds, settle)


async def _play(
    peer: Peer, server: Server, games: int, seconds: float, settle: float
) -> dict[str, Any]:
    """Run the load clients against ``server`` and measure one window."""
    load = await asyncio.create_subprocess_exec(
        "node",
        str(PEERS_DIR / peer.load),
        "--url",
        server.address,
        "--games",
        str(games),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        env=_node_env(),
    )
    assert load.stdin is not None
    assert load.stdout is not None
    try:
        limit = SEATED_LIMIT_S * (1 + games / 250)
        try:
            line = await asyncio.wait_for(load.stdout.readline(), limit)
        except TimeoutError:
            return _not_seated()
        if line.strip() != b"seated":
            raise RuntimeError(f"{peer.name}: the load clients said {line!r}")
        await asyncio.sleep(settle)
        cpu, client_cpu = server.cpu_seconds(), Server("", load.pid).cpu_seconds()
        started = time.perf_counter()
        load.stdin.write(b"start\n")
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - started
        cpu = server.cpu_seconds() - cpu
        client_cpu = Server("", load.pid).cpu_seconds() - client_cpu
        load.stdin.write(b"stop\n")
        summary = json.loads(await asyncio.wait_for(load.stdout.readline(), 30))
    finally:
        if load.returncode is None:
            load.kill()
        await load.wait()
    moves = int(summary["moves"])
    return {
        "moves_per_s": moves / elapsed,
        "p50_ms": float(summary["p50_ms"]),
        "p99_ms": float(summary["p99_ms"]),
        "server_cpu": cpu / elapsed,
        "cpu_per_move_ms": 1000 * cpu / max(1, moves),
        "client_cpu": client_cpu / elapsed,
        "ai_busy": 0.0,
        "errors": int(summary["errors"]),
        "error_codes": [],
    }


def _not_seated() -> dict[str, Any]:
    """The row of a run whose games were not all seated in time: nothing measured."""
    nothing = ("moves_per_s", "p50_ms", "p99_ms", "server_cpu", "cpu_per_move_ms")
    return dict.fromkeys(nothing, 0.0) | {
        "client_cpu": 0.0,
        "ai_busy": 0.0,
        "errors": 1,
        "error_codes": [NOT_SEATED],
    }
