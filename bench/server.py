"""Server speed: concurrent games of simple bots over real WebSockets on loopback.

For each number of concurrent games the benchmark starts a fresh ``gamut serve`` in its
own process (SQLite in a temporary folder, or with ``--postgres`` a new PostgreSQL
database dropped afterwards), connects two bots per game from this
process, lets them play random legal Network moves as fast as the server allows for a
fixed window, and prints:

- moves per second, and p50 / p99 of the time from a bot sending a move to its
  opponent receiving the ``move_made`` (stored before it is sent);
- the server's memory per connection (resident memory before and after connecting);
- the server's event-loop lag (p99 and worst wake-up delay) during the window.

One more run plays 10 games while the AI thinks in other games (level 8, both workers
busy), to show the loop's lag and the moves' latency with searches running. The limit
to compare with is this machine's raw aiohttp WebSocket echo round trip, measured
with as many concurrent clients as there are games.

Usage: ``python bench/server.py [--games 10 100 1000] [--seconds 10] [--tmpfs |
--postgres URL] [--no-echo]``.
Every run is bounded in time; only loopback addresses are used.

The bots play game after game (a seek by one, accepted by the other). The mover stamps
each move when it sends it and the opponent stamps the ``move_made`` it receives, so
both ends of every latency use the same clock of this process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from sqlalchemy.ext.asyncio import create_async_engine

from gamut_server.storage import database_url

RETRY_S = 0.1
"""Seconds a bot waits before sending a move the server dropped for its rate."""

WARM_UP_LIMIT = 60.0
"""Seconds to wait at most for every game to start before measuring."""

CONNECT_AT_ONCE = 100
"""Connections opened concurrently while setting up."""

SEEK = {"game": "network", "options": {"max_plies": 400}}
"""What the bots play."""

AI_SEEK = {"game": "connect5", "opponent": {"kind": "ai", "level": 8}, "side": 1}
"""What the AI run's thinkers play: the AI searches for its full (capped) time."""

Message = dict[str, Any]


@dataclass
class Tally:
    """What all the bots measured."""

    latencies_ms: list[float] = field(default_factory=list)
    """From a move's sending to the opponent's receiving its ``move_made``."""
    moves: int = 0
    """Moves the opponents received."""
    games: int = 0
    """Games finished."""
    errors: list[str] = field(default_factory=list)
    """Unexpected errors the server answered with."""
    measuring: bool = False
    """Whether moves count now (after the warm-up, before the end)."""
    sent_at: dict[tuple[str, int], float] = field(default_factory=dict)
    """When each (room, ply) move was sent."""
    seated: int = 0
    """Bots that have received the snapshot of their first game."""


class Bot:
    """One WebSocket client under one name."""

    def __init__(self, name: str, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.name = name
        self.ws = ws

    @classmethod
    async def connect(cls, session: aiohttp.ClientSession, url: str, name: str) -> Bot:
        """Connect and say hello as a bot that does not follow the lobby."""
        ws = await session.ws_connect(url, max_msg_size=8 * 1024 * 1024, heartbeat=None)
        bot = cls(name, ws)
        await bot.send({"type": "hello", "name": name, "kind": "bot", "lobby": False})
        await bot.expect("welcome")
        return bot

    async def send(self, message: Message) -> None:
        """Send one message."""
        await self.ws.send_str(json.dumps(message))

    async def receive(self) -> Message:
        """The next message; ``ConnectionError`` once the socket closes."""
        frame = await self.ws.receive()
        if frame.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(
                f"{self.name}: socket closed ({frame.type!r} {frame.data} {frame.extra})"
            )
        message: Message = json.loads(frame.data)
        return message

    async def expect(self, kind: str) -> Message:
        """The next message of type ``kind``, skipping others."""
        while True:
            message = await self.receive()
            if message["type"] == kind:
                return message


async def play_pair(
    first: Bot, second: Bot, tally: Tally, stop: asyncio.Event, seek: Message, seed: int
) -> None:
    """Play games between ``first`` and ``second`` until ``stop`` is set."""
    rng = random.Random(seed)
    while not stop.is_set():
        await first.send({**seek, "type": "seek"})
        seek_id = (await first.expect("seek_created"))["seek"]["seek_id"]
        await second.send({"type": "accept_seek", "seek_id": seek_id})
        await asyncio.gather(
            play_side(first, tally, stop, rng), play_side(second, tally, stop, rng)
        )


async def play_side(bot: Bot, tally: Tally, stop: asyncio.Event, rng: random.Random) -> None:
    """Play one side of one game until it ends or ``stop`` is set."""
    snapshot = await bot.expect("room_snapshot")
    tally.seated += 1
    room_id, side = snapshot["room_id"], snapshot["your_side"]
    position, legal = snapshot["position"], snapshot["legal_moves"]
    answered = -1
    while True:
        ply = position["ply"]
        if position["to_move"] == side and legal and ply != answered and not stop.is_set():
            answered = ply
            tally.sent_at[(room_id, ply)] = time.perf_counter()
            move = rng.choice(legal)
            await bot.send(
                {"type": "move", "room_id": room_id, "move": move, "ply": position["ply"]}
            )
        if stop.is_set():
            return
        message = await bot.receive()
        if message["type"] == "move_made":
            _arrived(tally, message, side)
            position, legal = message["position"], message["legal_moves"]
        elif message["type"] == "game_over":
            if side == 1:  # count each game once
                tally.games += 1
            return
        elif message["type"] == "error":
            tally.errors.append(message["code"])
            if message["code"] == "rate_limited":  # the move was dropped: send it again
                answered = -1
                await asyncio.sleep(RETRY_S)


def _arrived(tally: Tally, message: Message, side: int) -> None:
    """Record the latency of an opponent's move."""
    if message["side"] == side:
        return
    sent = tally.sent_at.pop((message["room_id"], message["ply"]), None)
    if sent is not None and tally.measuring:
        tally.latencies_ms.append((time.perf_counter() - sent) * 1000)
        tally.moves += 1


async def play_ai(bot: Bot, seek: Message, stop: asyncio.Event, rng: random.Random) -> int:
    """Play games against the server's AI until ``stop``; the AI moves received."""
    answers = 0
    while not stop.is_set():
        await bot.send({**seek, "type": "seek"})
        snapshot = await bot.expect("room_snapshot")
        room_id, side = snapshot["room_id"], snapshot["your_side"]
        position, legal = snapshot["position"], snapshot["legal_moves"]
        while not stop.is_set():
            if position["to_move"] == side and legal:
                move = rng.choice(legal)
                await bot.send(
                    {"type": "move", "room_id": room_id, "move": move, "ply": position["ply"]}
                )
            message = await bot.receive()
            if message["type"] == "game_over":
                break
            if message["type"] == "move_made":
                answers += message["side"] != side
                position, legal = message["position"], message["legal_moves"]
    return answers


def move_message(room_id: str, move: str, ply: int) -> Message:
    """A ``move`` message."""
    return {"type": "move", "room_id": room_id, "move": move, "ply": ply}


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which ``share`` of ``values`` fall (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@asynccontextmanager
async def server_process(db: str, *extra: str) -> AsyncIterator[str]:
    """A ``gamut serve`` subprocess on a free loopback port; yields its base URL.

    With ``GAMUT_BENCH_URL`` set (``http://127.0.0.1:PORT``), that running server is
    used instead, for profiling it.
    """
    if os.environ.get("GAMUT_BENCH_URL"):
        yield os.environ["GAMUT_BENCH_URL"]
        return
    command = [sys.executable, "-m", "gamut_server", "--host", "127.0.0.1", "--port", "0"]
    command += ["--db", db, "--quiet", *extra]
    async with _process(command, r"connect to ws://(\S+)/ws") as address:
        yield f"http://{address}"


@asynccontextmanager
async def _process(command: list[str], pattern: str) -> AsyncIterator[str]:
    """Run ``command`` until the block ends; yields the group its first line matches."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = await asyncio.to_thread(process.stdout.readline)
        found = re.search(pattern, line)
        if found is None:
            raise RuntimeError(f"the process did not start: {line!r}")
        yield found.group(1)
    finally:
        process.terminate()
        await asyncio.to_thread(process.wait, 30)


async def health(http: aiohttp.ClientSession, base: str) -> dict[str, Any]:
    """The server's ``/health``."""
    async with http.get(base + "/health") as response:
        body: dict[str, Any] = await response.json()
        return body


async def connect_bots(http: aiohttp.ClientSession, url: str, names: list[str]) -> list[Bot]:
    """Connect and welcome a bot per name, a hundred at a time."""
    bots: list[Bot] = []
    for start in range(0, len(names), CONNECT_AT_ONCE):
        chunk = names[start : start + CONNECT_AT_ONCE]
        bots += await asyncio.gather(*(Bot.connect(http, url, name) for name in chunk))
    return bots


@asynccontextmanager
async def bench_database(postgres: str | None, folder: Path) -> AsyncIterator[str]:
    """Where one run keeps its games: a SQLite file in ``folder``, or a new database on
    the ``postgres`` server (a URL of any database there), dropped afterwards."""
    if postgres is None:
        yield str(folder / "bench.sqlite3")
        return
    name = f"gamut_bench_{os.getpid()}_{secrets.token_hex(3)}"
    admin = create_async_engine(database_url(postgres), isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        yield database_url(postgres).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as conn:
            await conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.dispose()


async def run_games(games: int, seconds: float, db: str, ai_games: int) -> dict[str, Any]:
    """One run: ``games`` bot games (and ``ai_games`` against the AI) for ``seconds``."""
    workers = "2" if ai_games else "0"
    connector = aiohttp.TCPConnector(limit=0)
    async with (
        server_process(db, "--ai-workers", workers) as base,
        aiohttp.ClientSession(connector=connector) as http,
    ):
        url = base.replace("http", "ws", 1) + "/ws"
        before = await health(http, base)
        bots = await connect_bots(http, url, [f"b{n}" for n in range(2 * games)])
        connected = await health(http, base)
        thinkers = await connect_bots(http, url, [f"t{n}" for n in range(ai_games)])
        tally, stop = Tally(), asyncio.Event()
        tasks = [
            asyncio.create_task(play_pair(bots[2 * n], bots[2 * n + 1], tally, stop, SEEK, n))
            for n in range(games)
        ]
        ai_tasks = [
            asyncio.create_task(play_ai(bot, AI_SEEK, stop, random.Random(n)))
            for n, bot in enumerate(thinkers)
        ]
        await _seated(tally, 2 * games, WARM_UP_LIMIT)
        await asyncio.sleep(1.0)
        begin = await health(http, base)
        started, client_cpu = time.perf_counter(), time.process_time()
        tally.measuring = True
        busy = await _watch(http, base, seconds)
        tally.measuring = False
        elapsed = time.perf_counter() - started
        client_cpu = time.process_time() - client_cpu
        end = await health(http, base)
        stop.set()
        await _cancel([*tasks, *ai_tasks])
        await asyncio.gather(*(bot.ws.close() for bot in [*bots, *thinkers]))
    per_connection = (connected["rss_bytes"] - before["rss_bytes"]) / max(1, 2 * games)
    return {
        "games": games,
        "ai_games": ai_games,
        "moves_per_s": tally.moves / elapsed,
        "p50_ms": percentile(tally.latencies_ms, 0.50),
        "p99_ms": percentile(tally.latencies_ms, 0.99),
        "kib_per_connection": per_connection / 1024,
        "lag_p99_ms": end["loop_lag_p99_ms"],
        "lag_max_ms": end["loop_lag_max_ms"],
        "ai_busy": busy,
        "server_cpu": (end["cpu_seconds"] - begin["cpu_seconds"]) / elapsed,
        "client_cpu": client_cpu / elapsed,
        "errors": len(tally.errors),
        "error_codes": sorted(set(tally.errors)),
    }


async def _seated(tally: Tally, bots: int, limit: float) -> None:
    """Wait until every bot has its first game (at most ``limit`` seconds)."""
    deadline = time.perf_counter() + limit
    while tally.seated < bots and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)


async def _watch(http: aiohttp.ClientSession, base: str, seconds: float) -> float:
    """Wait ``seconds``; the share of that time the AI was thinking, sampled every 0.25 s."""
    samples, thinking = 0, 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        await asyncio.sleep(0.25)
        samples += 1
        thinking += (await health(http, base))["ai_thinking"] > 0
    return thinking / max(1, samples)


async def _cancel(tasks: list[asyncio.Task[Any]]) -> None:
    """Cancel the bots' tasks and wait for them."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def echo_server() -> None:
    """Serve a bare aiohttp WebSocket echo on a free loopback port (run in a subprocess)."""

    async def echo(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for frame in ws:
            await ws.send_str(frame.data)
        return ws

    app = web.Application()
    app.router.add_get("/ws", echo)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    listener = socket.create_server(("127.0.0.1", 0), backlog=1024)
    await web.SockSite(runner, listener).start()
    print(f"connect to ws://127.0.0.1:{listener.getsockname()[1]}/ws", flush=True)
    await asyncio.Event().wait()


async def run_echo(clients: int, seconds: float) -> dict[str, Any]:
    """Round trips of ``clients`` concurrent echo clients, each sending 200 bytes in turn."""
    command = [sys.executable, __file__, "--echo-server"]
    connector = aiohttp.TCPConnector(limit=0)
    async with (
        _process(command, r"connect to (ws://\S+/ws)") as url,
        aiohttp.ClientSession(connector=connector) as http,
    ):
        sockets = []
        for start in range(0, clients, CONNECT_AT_ONCE):
            count = min(CONNECT_AT_ONCE, clients - start)
            sockets += await asyncio.gather(*(http.ws_connect(url) for _ in range(count)))
        times: list[float] = []
        deadline = time.perf_counter() + seconds
        payload = "x" * 200

        async def ping_pong(ws: aiohttp.ClientWebSocketResponse) -> None:
            while time.perf_counter() < deadline:
                sent = time.perf_counter()
                await ws.send_str(payload)
                await ws.receive()
                times.append((time.perf_counter() - sent) * 1000)

        await asyncio.gather(*(ping_pong(ws) for ws in sockets))
        await asyncio.gather(*(ws.close() for ws in sockets))
    return {
        "clients": clients,
        "round_trips_per_s": len(times) / seconds,
        "p50_ms": percentile(times, 0.5),
        "p99_ms": percentile(times, 0.99),
    }


async def main(args: argparse.Namespace) -> None:
    """Run every measurement and print the tables."""
    root = "/dev/shm" if args.tmpfs else None
    database = "PostgreSQL" if args.postgres else "SQLite"
    print(f"Gamut server benchmark: {args.seconds:g} s per run, Network bots, {database}")
    header = (
        f"{'games':>6} {'AI':>3} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'KiB/conn':>9} {'lag p99':>8} {'lag max':>8} {'AI busy':>8} "
        f"{'srv CPU':>8} {'bots CPU':>8} {'errors':>6}"
    )
    print(header)
    runs = [(games, 0) for games in args.games] + [(10, args.ai_games)]
    for games, ai_games in runs:
        with tempfile.TemporaryDirectory(dir=root) as folder:
            async with bench_database(args.postgres, Path(folder)) as db:
                row = await run_games(games, args.seconds, db, ai_games)
        print(
            f"{row['games']:>6} {row['ai_games']:>3} {row['moves_per_s']:>8,.0f} "
            f"{row['p50_ms']:>8.1f} {row['p99_ms']:>8.1f} {row['kib_per_connection']:>9.1f} "
            f"{row['lag_p99_ms']:>8.1f} {row['lag_max_ms']:>8.1f} {row['ai_busy']:>8.0%} "
            f"{row['server_cpu']:>8.0%} {row['client_cpu']:>8.0%} "
            f"{row['errors']:>6} {' '.join(row['error_codes'])}",
            flush=True,
        )
    if not args.no_echo:
        await print_echo(args)


async def print_echo(args: argparse.Namespace) -> None:
    """Measure and print the raw aiohttp echo for each number of games."""
    print("\nRaw aiohttp WebSocket echo on the same machine (200-byte frames)")
    print(f"{'clients':>7} {'trips/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
    for clients in args.games:
        echo = await run_echo(clients, min(args.seconds, 5.0))
        print(
            f"{echo['clients']:>7} {echo['round_trips_per_s']:>9,.0f} "
            f"{echo['p50_ms']:>8.2f} {echo['p99_ms']:>8.2f}",
            flush=True,
        )


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured window per run")
    parser.add_argument("--ai-games", type=int, default=4, help="AI games in the AI run")
    parser.add_argument("--tmpfs", action="store_true", help="keep the database in /dev/shm")
    parser.add_argument("--postgres", metavar="URL", help="use a new database on this server")
    parser.add_argument("--no-echo", action="store_true", help="skip the raw echo figures")
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse_args()
    if arguments.echo_server:
        asyncio.run(echo_server())
    else:
        asyncio.run(main(arguments))
