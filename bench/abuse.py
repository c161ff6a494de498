"""A bystander's game under floods from one hostile address.

For each scenario the benchmark starts a fresh ``gamut serve`` (SQLite in a temporary
folder, the server's own per-address limits, not those the load benchmarks raise),
seats one pair of bots from 127.0.0.1 playing random Network moves as fast as the
server answers, and after a settling second measures for a fixed window the time
from a bot sending a move to its opponent receiving it, while a flood runs from
127.0.0.2 (another loopback address, as a stranger would have):

- ``quiet``: no flood;
- ``garbage``: 10 connections sending frames that are not JSON as fast as they can,
  reconnecting whenever the server closes them;
- ``seeks``: 100 connections each keeping 5 seeks open, cancelling and reopening them,
  while 50 lobby subscribers (10 of which never read) follow the lobby;
- ``connections``: sockets opened as fast as possible and never saying ``hello``;
- ``registrations``: 20 clients registering accounts in a loop;
- ``chat``: 40 connections saying lobby chat lines as fast as they can;
- ``non-readers``: 20 spectators of the bystanders' game that never read;
- ``pings``: 10 connections sending well-formed pings as fast as they can;
- ``half-open``: 400 sockets sending a ``GET /ws`` head one byte a second, never done;
- ``passwords``: 20 clients trying wrong passwords for one account as fast as the
  server answers (its address's sign-in allowance runs out at once);
- ``passwords-spread``: wrong passwords from 64 addresses (127.0.1.1 to 127.0.1.64),
  each at an account of its own made just before, 4 clients an address: every address
  and every account has its full allowance, so the server hashes as fast as its pool
  lets it, and refuses what its pool has no room for.

Before the floods that try passwords it prints what one sign-in with the right password
costs: the median of 20 in a row, over HTTP, on a quiet server.

It prints each scenario's moves, p50 and p99 (medians over ``--rounds``, the scenarios
interleaved in every round) and the ratio of each p99 to the quiet one. ``--baseline
SRC`` measures a Gamut from another source tree in the same rounds.

Usage: ``python bench/abuse.py [--seconds 6] [--rounds 3] [--baseline SRC]
[--only garbage seeks …]``. Every run is bounded in time; only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import random
import socket
import statistics
import sys
import tempfile
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

import aiohttp
from bots import SEEK, connect_bots, play_pair
from loadgen import Tally, cancel, percentile, server_process

from server import gamut_command, source_env

HOSTILE = "127.0.0.2"
"""The flooding address: not the bystanders' 127.0.0.1."""

SETTLE_S = 1.0
"""Seconds of play (and flood) before the window opens."""

Flood = Callable[[str, asyncio.Event], Coroutine[Any, Any, None]]


def defended_env(source: str | None) -> dict[str, str]:
    """The environment running Gamut from ``source`` with its own per-address limits (not
    the ones the load benchmarks raise for their bots on loopback): the defences are what
    this benchmark measures, and its two bystanders are well within them."""
    env = source_env(source)
    env.pop("GAMUT_LIMITS", None)
    return env


def hostile_session() -> aiohttp.ClientSession:
    """A client session whose connections come from :data:`HOSTILE`."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(HOSTILE, 0)))


async def keep_going(stop: asyncio.Event, work: Callable[[], Awaitable[None]]) -> None:
    """Run ``work`` again and again until ``stop``, whatever it raises."""
    while not stop.is_set():
        try:
            await work()
        except (aiohttp.ClientError, ConnectionError, OSError, TimeoutError, ValueError):
            await asyncio.sleep(0.05)


async def quiet(url: str, stop: asyncio.Event) -> None:
    """No flood."""
    await stop.wait()


async def garbage(url: str, stop: asyncio.Event) -> None:
    """10 connections sending frames that are not JSON, reconnecting when closed."""
    async with hostile_session() as http:

        async def one() -> None:
            async with http.ws_connect(url, heartbeat=None) as ws:
                reader = asyncio.create_task(drain(ws))
                while not stop.is_set() and not ws.closed:
                    await ws.send_str("this is not json {")
                    await asyncio.sleep(0)
                reader.cancel()

        await asyncio.gather(*(keep_going(stop, one) for _ in range(10)))


async def seeks(url: str, stop: asyncio.Event) -> None:
    """100 seekers churning 5 seeks each while 50 subscribers (10 not reading) watch."""
    async with hostile_session() as http:
        watchers = [await hello(http, url, f"fan{n}", lobby=True) for n in range(50)]
        readers = [asyncio.create_task(drain(ws)) for ws in watchers[10:]]

        async def seeker(n: int) -> None:
            ws = await hello(http, url, f"seeker{n}", lobby=False)
            reader = asyncio.create_task(drain(ws))
            while not stop.is_set():
                for _ in range(5):
                    await ws.send_str(json.dumps({"type": "seek", "game": "network"}))
                await asyncio.sleep(0.2)
            reader.cancel()

        await asyncio.gather(*(keep_going(stop, functools.partial(seeker, n)) for n in range(100)))
        await cancel(readers)


async def connections(url: str, stop: asyncio.Event) -> None:
    """Sockets opened as fast as possible, never saying hello, left open."""
    host, port = url.removeprefix("ws://").removesuffix("/ws").rsplit(":", 1)
    opened: list[socket.socket] = []

    async def one() -> None:
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((HOSTILE, 0))
        await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
        upgrade = (
            f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        await asyncio.get_running_loop().sock_sendall(sock, upgrade.encode())
        opened.append(sock)
        await asyncio.sleep(0.001)

    try:
        await asyncio.gather(*(keep_going(stop, one) for _ in range(10)))
    finally:
        for sock in opened:
            sock.close()


async def registrations(url: str, stop: asyncio.Event) -> None:
    """20 clients registering accounts in a loop."""
    base = url.replace("ws://", "http://").removesuffix("/ws")
    async with hostile_session() as http:

        async def one() -> None:
            name = f"r{random.randrange(10**9)}"
            async with http.post(base + "/api/accounts", json={"name": name}) as answer:
                await answer.read()

        await asyncio.gather(*(keep_going(stop, one) for _ in range(20)))


async def chat(url: str, stop: asyncio.Event) -> None:
    """40 connections saying lobby chat lines as fast as the server reads them."""
    async with hostile_session() as http:

        async def talker(n: int) -> None:
            ws = await hello(http, url, f"talker{n}", lobby=True)
            reader = asyncio.create_task(drain(ws))
            while not stop.is_set() and not ws.closed:
                await ws.send_str(json.dumps({"type": "chat", "text": "spam " * 20}))
                await asyncio.sleep(0.01)
            reader.cancel()

        await asyncio.gather(*(keep_going(stop, functools.partial(talker, n)) for n in range(40)))


async def pings(url: str, stop: asyncio.Event) -> None:
    """10 connections sending well-formed pings as fast as they can, reconnecting when
    closed."""
    async with hostile_session() as http:

        async def one() -> None:
            ws = await hello(http, url, f"pinger{random.randrange(10**9)}", lobby=False)
            reader = asyncio.create_task(drain(ws))
            while not stop.is_set() and not ws.closed:
                await ws.send_str('{"type": "ping"}')
                await asyncio.sleep(0)
            reader.cancel()

        await asyncio.gather(*(keep_going(stop, one) for _ in range(10)))


async def half_open(url: str, stop: asyncio.Event) -> None:
    """400 sockets sending a ``GET /ws`` head one byte a second, never finishing it,
    opened again whenever the server closes one."""
    host, port = url.removeprefix("ws://").removesuffix("/ws").rsplit(":", 1)
    head = f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n".encode()

    async def one() -> None:
        reader, writer = await asyncio.open_connection(host, int(port), local_addr=(HOSTILE, 0))
        try:
            for byte in head * 100:
                if stop.is_set() or reader.at_eof():
                    return
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.sleep(1)
        finally:
            writer.close()

    await asyncio.gather(*(keep_going(stop, one) for _ in range(400)))


async def non_readers(url: str, stop: asyncio.Event) -> None:
    """20 spectators of every live room that never read a byte after joining."""
    base = url.replace("ws://", "http://").removesuffix("/ws")
    async with hostile_session() as http:
        async with http.get(base + "/api/rooms") as answer:
            rooms = [room["room_id"] for room in await answer.json()]
        sockets = []
        for n in range(20):
            ws = await hello(http, url, f"stuck{n}", lobby=True)
            for room_id in rooms:
                await ws.send_str(json.dumps({"type": "join", "room_id": room_id}))
            sockets.append(ws)
        await stop.wait()


PASSWORD = "the right passphrase"
"""The flood's accounts' password (never the one it tries)."""


async def sign_up(http: aiohttp.ClientSession, base: str, name: str) -> None:
    """Make the account ``name`` (from ``http``'s address), waiting while the server's
    hashing pool is full (it says so with 503)."""
    body = {"name": name, "password": PASSWORD, "session": "token"}
    while True:
        async with http.post(base + "/api/signup", json=body) as answer:
            if answer.status == 201:
                return
            if answer.status != 503:
                raise ConnectionError(await answer.text())
        await asyncio.sleep(0.1)


async def guess(http: aiohttp.ClientSession, base: str, name: str) -> None:
    """One wrong password for ``name``."""
    body = {"name": name, "password": f"guess {random.randrange(10**9)}"}
    async with http.post(base + "/api/login", json=body) as answer:
        await answer.read()


async def passwords(url: str, stop: asyncio.Event) -> None:
    """20 clients trying wrong passwords for one account as fast as the server answers."""
    base = url.replace("ws://", "http://").removesuffix("/ws")
    async with hostile_session() as http:
        await sign_up(http, base, "victim")
        work = functools.partial(guess, http, base, "victim")
        await asyncio.gather(*(keep_going(stop, work) for _ in range(20)))


SPREAD_ADDRESSES = [f"127.0.1.{n}" for n in range(1, 65)]
"""The addresses of the spread password flood."""


async def passwords_spread(url: str, stop: asyncio.Event) -> None:
    """Wrong passwords from 64 addresses, each at its own account, 4 clients an address."""
    base = url.replace("ws://", "http://").removesuffix("/ws")
    sessions = [
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(address, 0)))
        for address in SPREAD_ADDRESSES
    ]
    try:
        names = [f"victim{n}" for n in range(len(sessions))]
        for http, name in zip(sessions, names, strict=True):
            await sign_up(http, base, name)
        work = [
            functools.partial(guess, http, base, name)
            for http, name in zip(sessions, names, strict=True)
            for _ in range(4)
        ]
        await asyncio.gather(*(keep_going(stop, one) for one in work))
    finally:
        await asyncio.gather(*(http.close() for http in sessions))


async def sign_in_cost(folder: Path) -> float:
    """The median milliseconds of 20 sign-ins in a row with the right password, over HTTP,
    on a fresh quiet server."""
    db = str(folder / f"cost-{random.randrange(10**9)}.sqlite3")
    async with (
        server_process(
            gamut_command(db, 0), r"connect to ws://(\S+)/ws", defended_env(None)
        ) as server,
        aiohttp.ClientSession() as http,
    ):
        base = f"http://{server.address}"
        await sign_up(http, base, "ada")
        loop, times = asyncio.get_running_loop(), []
        for _ in range(20):
            started = loop.time()
            body = {"name": "ada", "password": PASSWORD, "session": "token"}
            async with http.post(base + "/api/login", json=body) as answer:
                assert answer.status == 200, await answer.text()
            times.append((loop.time() - started) * 1000)
        return statistics.median(times)


FLOODS: dict[str, Flood] = {
    "quiet": quiet,
    "garbage": garbage,
    "seeks": seeks,
    "connections": connections,
    "registrations": registrations,
    "chat": chat,
    "non-readers": non_readers,
    "pings": pings,
    "half-open": half_open,
    "passwords": passwords,
    "passwords-spread": passwords_spread,
}


async def hello(
    http: aiohttp.ClientSession, url: str, name: str, *, lobby: bool
) -> aiohttp.ClientWebSocketResponse:
    """A welcomed connection; ``ConnectionError`` if the server refuses it."""
    ws = await http.ws_connect(url, heartbeat=None, max_msg_size=0)
    await ws.send_str(json.dumps({"type": "hello", "name": name, "lobby": lobby, "protocol": 2}))
    while True:
        message = json.loads((await ws.receive()).data)
        if message["type"] == "welcome":
            return ws
        if message["type"] == "error":
            raise ConnectionError(message["message"])


async def drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    """Read and forget everything ``ws`` receives."""
    with contextlib.suppress(Exception):
        async for _ in ws:
            pass


async def measure(flood: str, seconds: float, source: str | None, folder: Path) -> Tally:
    """One scenario on a fresh server: the bystanders' tally while ``flood`` runs in a
    process of its own (so that its work does not delay the bystanders' clocks)."""
    db = str(folder / f"abuse-{random.randrange(10**9)}.sqlite3")
    async with (
        server_process(
            gamut_command(db, 0), r"connect to ws://(\S+)/ws", defended_env(source)
        ) as server,
        aiohttp.ClientSession() as http,
    ):
        url = f"ws://{server.address}/ws"
        first, second = await connect_bots(http, url, ["by-a", "by-b"], 2)
        tally, stop = Tally(), asyncio.Event()
        game = asyncio.create_task(play_pair(first, second, tally, stop, SEEK, 1))
        await asyncio.sleep(SETTLE_S / 2)
        command = [sys.executable, __file__, "--flood", flood, "--url", url]
        flooding = await asyncio.create_subprocess_exec(*command, "--seconds", str(seconds + 5))
        await asyncio.sleep(SETTLE_S)
        tally.measuring = True
        await asyncio.sleep(seconds)
        tally.measuring = False
        stop.set()
        with contextlib.suppress(ProcessLookupError):
            flooding.terminate()
        await flooding.wait()
        await cancel([game])
        return tally


async def run_flood(name: str, url: str, seconds: float) -> None:
    """Run one flood against ``url`` for ``seconds`` (the process the benchmark starts)."""
    stop = asyncio.Event()
    asyncio.get_running_loop().call_later(seconds, stop.set)
    await FLOODS[name](url, stop)


def summary(tallies: list[Tally], seconds: float) -> tuple[float, float, float]:
    """Medians over rounds: moves a second, p50 and p99 in ms."""
    rate = statistics.median(t.moves / seconds for t in tallies)
    p50 = statistics.median(percentile(t.latencies_ms, 0.5) for t in tallies)
    p99 = statistics.median(percentile(t.latencies_ms, 0.99) for t in tallies)
    return rate, p50, p99


async def main(args: argparse.Namespace) -> None:
    """Every scenario, in turn, ``args.rounds`` times; then the table."""
    sources: list[tuple[str, str | None]] = [("gamut", None)]
    if args.baseline:
        sources.append(("baseline", args.baseline))
    names = ["quiet", *(name for name in FLOODS if name != "quiet" and name in args.only)]
    results: dict[tuple[str, str], list[Tally]] = {}
    with tempfile.TemporaryDirectory() as folder:
        if any(name.startswith("passwords") for name in names):
            cost = await sign_in_cost(Path(folder))
            print(f"one sign-in with the right password: {cost:.1f} ms (median of 20, HTTP)")
        for _ in range(args.rounds):
            for name in names:
                for label, source in sources:
                    tally = await measure(name, args.seconds, source, Path(folder))
                    results.setdefault((label, name), []).append(tally)
    print(f"| server | flood | moves/s | p50 | p99 | p99 / quiet p99 |  ({args.rounds} rounds)")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for label, _ in sources:
        quiet_p99 = summary(results[(label, "quiet")], args.seconds)[2]
        for name in names:
            rate, p50, p99 = summary(results[(label, name)], args.seconds)
            ratio = p99 / quiet_p99 if quiet_p99 else float("nan")
            print(f"| {label} | {name} | {rate:.0f} | {p50:.1f} ms | {p99:.1f} ms | {ratio:.2f} |")
    sys.stdout.flush()


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="measuring window per run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each scenario")
    parser.add_argument("--baseline", metavar="SRC", help="also measure Gamut from this tree")
    parser.add_argument("--only", nargs="*", default=list(FLOODS), help="floods to run")
    parser.add_argument("--flood", choices=list(FLOODS), help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse()
    if arguments.flood:
        asyncio.run(run_flood(arguments.flood, arguments.url, arguments.seconds))
    else:
        asyncio.run(main(arguments))
