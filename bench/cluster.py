"""Cluster speed: the server benchmark across 1, 2 and 3 Gamut nodes sharing one Redis.

Each setup starts its own server processes on free loopback ports against a new
PostgreSQL database (dropped afterwards) and, for the cluster, a Redis cluster name of
its own (``--cluster``, so nothing else in that Redis is touched; its keys are deleted
afterwards). Two bots per game connect from this process and play random legal Network
moves as fast as the server allows, for a fixed window, as ``bench/server.py`` does.
The setups, measured in turn in every round:

- ``single``: one ``gamut serve`` without ``--redis``, the baseline;
- ``N nodes, same``: N nodes, games spread over them round-robin, both players of a
  game on the same node;
- ``N nodes, across``: the same, but the second player of each game on the next node,
  so every game's moves cross Redis to reach one of its players;
- with ``--independent``, ``N servers``: N servers without Redis, each with a database
  of its own and its own games (shards that share nothing: the most N processes could
  do on this machine).

For each it prints moves per second, the p50 and p99 of the time from a move's sending
to the opponent's receiving it, and the CPU it cost, read from ``/proc`` for the
window: the server processes summed (and per move), Redis, the PostgreSQL processes
serving the setup's database (and the server's shared background processes), this
load generator, and the rest of the machine; and how long the servers' threads were
ready to run but found no free core (``/proc/PID/task/*/schedstat``), the sign that the
machine, not the servers, sets the pace. Ratios are to the single server's figures
from the same rounds.

Usage: ``python bench/cluster.py [--nodes 1 2 3] [--games 100] [--seconds 8]
[--rounds N] [--postgres URL] [--redis URL] [--independent] [--no-cluster]
[--py-spy DIR] [--logs DIR] [--verbose]``. Each server's standard error goes to a file
in ``--logs`` (warnings only, or everything with ``--verbose``). ``--no-cluster``
leaves the Redis setups out (for a Gamut without ``--redis``); ``--py-spy DIR`` samples
every server with py-spy during each window (the sampler's CPU shows as the rest of the
machine, and the servers go slower).
Only loopback addresses are used, and every run is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import shutil
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import redis.asyncio as aioredis
from bots import SEEK, Bot, Message, connect_bots, play_seated, play_side
from cluster_usage import Usage, Watched
from loadgen import Server, Tally, bench_database, cancel, percentile, server_process, wait_seated

from server import WARM_UP_LIMIT, health, median_row, source_env

SETTLE_S = 2.0
"""Seconds of play before the window opens."""

ACCEPT_TRIES = 100
"""How often a bot asks for a seek another node may not know of yet."""

ACCEPT_RETRY_S = 0.05
"""Seconds between those tries."""

PY_SPY = shutil.which("py-spy", path=f"{Path(sys.executable).parent}{os.pathsep}{os.defpath}")
"""The sampling profiler, beside this Python or on the path (``--py-spy``)."""

Row = dict[str, Any]


@dataclass(frozen=True)
class Setup:
    """One way of running the servers."""

    label: str
    """How the table names it."""
    nodes: int
    """Server processes."""
    redis: bool
    """Whether they form a cluster through Redis (else each is on its own)."""
    across: bool = False
    """Whether the two players of a game are on different nodes."""


def setups(nodes: Sequence[int], cluster: bool, independent: bool) -> list[Setup]:
    """The setups to measure, the single server first."""
    chosen = [Setup("single", 1, redis=False)]
    for count in nodes:
        plural = "node" if count == 1 else "nodes"
        if cluster:
            chosen.append(Setup(f"{count} {plural}, same", count, redis=True))
            if count > 1:
                chosen.append(Setup(f"{count} {plural}, across", count, True, across=True))
        if independent and count > 1:
            chosen.append(Setup(f"{count} servers", count, redis=False))
    return chosen


def slug(label: str) -> str:
    """``label`` as part of a file name."""
    return "-".join(label.replace(",", "").split())


def node_command(
    db: str, node: int | None, cluster: str, redis_url: str, verbose: bool = False
) -> list[str]:
    """The command starting one server on a free loopback port (``node``: its number
    in a cluster, ``None`` for a server on its own), logging warnings only unless
    ``verbose``."""
    command = [sys.executable, "-m", "gamut_server", "--host", "127.0.0.1", "--port", "0"]
    command += ["--db", db, "--ai-workers", "0", *([] if verbose else ["--quiet"])]
    if node is None:
        return command
    return [*command, "--redis", redis_url, "--node", f"node{node}", "--cluster", cluster]


@asynccontextmanager
async def redis_keys_dropped(redis_url: str, cluster: str) -> AsyncIterator[None]:
    """Delete the keys of the benchmark's cluster name once the block ends."""
    try:
        yield
    finally:
        client = aioredis.from_url(redis_url)
        try:
            keys = [key async for key in client.scan_iter(match=f"{cluster}:*", count=1000)]
            if keys:
                await client.delete(*keys)
        finally:
            await client.aclose()


async def start_servers(
    stack: AsyncExitStack, setup: Setup, args: argparse.Namespace, run: str
) -> tuple[list[Server], list[str]]:
    """Start the setup's servers one after the other; their processes and databases."""
    cluster = f"gamut-bench-{os.getpid()}-{secrets.token_hex(3)}"
    if setup.redis:
        await stack.enter_async_context(redis_keys_dropped(args.redis, cluster))
    databases: list[str] = []
    servers: list[Server] = []
    for index in range(setup.nodes):
        if index == 0 or not setup.redis:
            database = bench_database(args.postgres, Path(tempfile.gettempdir()))
            databases.append(await stack.enter_async_context(database))
        node = index + 1 if setup.redis else None
        command = node_command(databases[-1], node, cluster, args.redis, args.verbose)
        log_path = args.logs / f"{run}-node{index + 1}.log"
        log = stack.enter_context(log_path.open("w"))
        started = server_process(
            command, r"connect to ws://(\S+)/ws", source_env(None), lines=20, log=log
        )
        servers.append(await stack.enter_async_context(started))
    return servers, databases


async def describe(http: aiohttp.ClientSession, servers: Sequence[Server]) -> str:
    """What each server's ``/health`` says of its node, and which node leads the lobby."""
    parts, leaders = [], set()
    for server in servers:
        place = (await health(http, f"http://{server.address}")).get("cluster")
        if place is None:
            return "alone"
        parts.append(f"{place['node']} #{place['node_number']}")
        leaders.add(str(place["leader"]))
    return ", ".join(parts) + f"; lobby led by #{'/'.join(sorted(leaders))}"


async def accept_seek(bot: Bot, seek_id: str) -> Message:
    """Accept ``seek_id`` until the room's snapshot comes, asking again after an error
    (the seek may not have reached this bot's node yet)."""
    for _ in range(ACCEPT_TRIES):
        await bot.send({"type": "accept_seek", "seek_id": seek_id})
        while True:
            message = await bot.receive()
            if message["type"] == "room_snapshot":
                return message
            if message["type"] == "error":
                break
        await asyncio.sleep(ACCEPT_RETRY_S)
    raise RuntimeError(f"{bot.name} could not accept seek {seek_id}: {message}")


async def play_games(first: Bot, second: Bot, tally: Tally, stop: asyncio.Event, seed: int) -> None:
    """Play games between ``first`` (who seeks) and ``second`` until ``stop`` is set."""
    rng = random.Random(seed)
    while not stop.is_set():
        await first.send({**SEEK, "type": "seek"})
        seek_id = (await first.expect("seek_created"))["seek"]["seek_id"]
        snapshot = await accept_seek(second, seek_id)
        await asyncio.gather(
            play_side(first, tally, stop, rng), play_seated(second, snapshot, tally, stop, rng)
        )


async def seat_bots(
    http: aiohttp.ClientSession, servers: Sequence[Server], setup: Setup, games: int
) -> list[tuple[Bot, Bot]]:
    """Two bots per game: game ``g``'s first on node ``g mod N``, its second on the same
    node or, across, on the next one."""
    version = int((await health(http, f"http://{servers[0].address}"))["protocol"])
    names: list[list[str]] = [[] for _ in servers]
    places: list[tuple[int, int]] = []
    for game in range(games):
        home = game % len(servers)
        away = (home + 1) % len(servers) if setup.across else home
        places.append((home, len(names[home])))
        names[home].append(f"a{game}")
        places.append((away, len(names[away])))
        names[away].append(f"b{game}")
    per_node = [
        await connect_bots(http, f"ws://{server.address}/ws", node_names, version)
        for server, node_names in zip(servers, names, strict=True)
    ]
    bots = [per_node[node][index] for node, index in places]
    return [(bots[2 * game], bots[2 * game + 1]) for game in range(games)]


async def run_setup(setup: Setup, args: argparse.Namespace, round_number: int) -> Row:
    """One measurement of ``setup``."""
    run = f"{slug(setup.label)}-round{round_number + 1}"
    async with AsyncExitStack() as stack:
        servers, databases = await start_servers(stack, setup, args, run)
        connector = aiohttp.TCPConnector(limit=0)
        http = await stack.enter_async_context(aiohttp.ClientSession(connector=connector))
        nodes = await describe(http, servers)
        pairs = await seat_bots(http, servers, setup, args.games)
        tally, stop = Tally(), asyncio.Event()
        tasks = [
            asyncio.create_task(play_games(first, second, tally, stop, game))
            for game, (first, second) in enumerate(pairs)
        ]
        await wait_seated(tally, 2 * args.games, WARM_UP_LIMIT)
        seated = tally.seated
        await asyncio.sleep(SETTLE_S)
        watched = Watched.of([server.pid for server in servers], databases)
        async with profiled(servers, args.seconds, args.py_spy, run):
            row = await measure(tally, watched, args.seconds)
        stop.set()
        await cancel(tasks)
        await asyncio.gather(*(bot.ws.close() for pair in pairs for bot in pair))
    return row | {"seated": seated, "nodes_seen": nodes}


@asynccontextmanager
async def profiled(
    servers: Sequence[Server], seconds: float, folder: Path | None, run: str
) -> AsyncIterator[None]:
    """With a ``folder``, sample each server with py-spy for ``seconds`` while the block
    runs, into ``folder/RUN-nodeK.txt`` (collapsed stacks, one a line)."""
    if folder is None:
        yield
        return
    if PY_SPY is None:
        raise SystemExit("--py-spy needs py-spy (pip install py-spy)")
    folder.mkdir(parents=True, exist_ok=True)
    samplers = [
        await asyncio.create_subprocess_exec(
            PY_SPY,
            "record",
            "--pid",
            str(server.pid),
            "--duration",
            str(round(seconds)),
            "--rate",
            "100",
            "--nonblocking",
            "--format",
            "raw",
            "--output",
            str(folder / f"{run}-node{index + 1}.txt"),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        for index, server in enumerate(servers)
    ]
    try:
        yield
    finally:
        await asyncio.gather(*(sampler.wait() for sampler in samplers))


async def measure(tally: Tally, watched: Watched, seconds: float) -> Row:
    """Moves, latencies and CPU over a window of ``seconds``."""
    before = watched.sample()
    started = time.perf_counter()
    tally.measuring = True
    await asyncio.sleep(seconds)
    tally.measuring = False
    elapsed = time.perf_counter() - started
    spent = Watched.between(before, watched.sample())
    return {
        "moves_per_s": tally.moves / elapsed,
        "p50_ms": percentile(tally.latencies_ms, 0.50),
        "p99_ms": percentile(tally.latencies_ms, 0.99),
        "cpu_per_move_ms": 1000 * spent.servers / max(1, tally.moves),
        **{f"{name}_cpu": value / elapsed for name, value in spent.shares().items()},
        "waiting": spent.waiting / elapsed,
        "errors": len(tally.errors),
        "error_codes": sorted(set(tally.errors)),
    }


def print_table(rows: dict[Setup, Row], games: int) -> None:
    """The markdown table, with ratios to the single server."""
    base = rows[next(iter(rows))]
    print(
        "| setup | moves/s | × single | p50 | p99 | server CPU per move | × single "
        "| servers | servers waiting for a core | Redis | PostgreSQL | load generator "
        "| rest of machine | errors |"
    )
    print("| --- |" + " ---: |" * 13)
    for setup, row in rows.items():
        cells = [
            setup.label,
            f"{row['moves_per_s']:,.0f}",
            f"{row['moves_per_s'] / max(base['moves_per_s'], 1e-9):.2f}",
            f"{row['p50_ms']:,.0f} ms",
            f"{row['p99_ms']:,.0f} ms",
            f"{row['cpu_per_move_ms']:.2f} ms",
            f"{row['cpu_per_move_ms'] / max(base['cpu_per_move_ms'], 1e-9):.2f}",
            f"{row['servers_cpu']:.0%}",
            f"{row['waiting']:.0%}",
            *(f"{row[f'{name}_cpu']:.0%}" for name in Usage.NAMES[1:]),
            f"{row['errors']}" + (f" ({' '.join(row['error_codes'])})" if row["errors"] else ""),
        ]
        print("| " + " | ".join(cells) + " |", flush=True)
    short = [f"{setup.label}: {row['seated']:.0f}" for setup, row in rows.items()]
    print(f"\nplayers seated of {2 * games} (medians): " + ", ".join(short))


async def main(args: argparse.Namespace) -> None:
    """Measure every setup ``args.rounds`` times in turn and print the medians."""
    chosen = setups(args.nodes, not args.no_cluster, args.independent)
    print(
        f"Gamut cluster benchmark: {args.games} Network games of random bots, "
        f"{args.seconds:g} s windows, {args.rounds} round(s), PostgreSQL, CPU in cores "
        f"({os.cpu_count()} here); medians over rounds",
        flush=True,
    )
    args.logs.mkdir(parents=True, exist_ok=True)
    print(f"the servers' logs (warnings and errors): {args.logs}", flush=True)
    runs: dict[Setup, list[Row]] = {setup: [] for setup in chosen}
    for round_number in range(args.rounds):
        order = chosen if round_number % 2 == 0 else chosen[::-1]
        for setup in order:
            row = await run_setup(setup, args, round_number)
            runs[setup].append(row)
            print(
                f"  round {round_number + 1}, {setup.label}: {row['moves_per_s']:,.0f} moves/s, "
                f"{row['seated']}/{2 * args.games} seated; nodes: {row['nodes_seen']}",
                flush=True,
            )
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}\n")
    print_table({setup: median_row(rows) for setup, rows in runs.items()}, args.games)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--games", type=int, default=100, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=8.0, help="measured window per run")
    parser.add_argument("--rounds", type=int, default=1, help="measurements of each (medians)")
    parser.add_argument(
        "--postgres",
        default="postgresql://postgres@127.0.0.1:5432/test",
        metavar="URL",
        help="the PostgreSQL server, as the URL of any database on it",
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379", metavar="URL")
    parser.add_argument(
        "--independent", action="store_true", help="also N servers without Redis, sharing nothing"
    )
    parser.add_argument(
        "--py-spy",
        type=Path,
        metavar="DIR",
        help="sample every server with py-spy during each window, into DIR (slows them)",
    )
    parser.add_argument(
        "--logs",
        type=Path,
        metavar="DIR",
        help="where the servers' logs go (default: a new folder in the temporary folder)",
    )
    parser.add_argument("--verbose", action="store_true", help="the servers log at INFO level")
    parser.add_argument(
        "--no-cluster", action="store_true", help="leave out the setups that need --redis"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse_args()
    if arguments.logs is None:
        arguments.logs = Path(tempfile.mkdtemp(prefix="gamut-cluster-bench-"))
    asyncio.run(main(arguments))
