"""Server speed: concurrent games of simple bots over real WebSockets on loopback.

For each number of concurrent games the benchmark starts a fresh ``gamut serve`` in its
own process (SQLite in a temporary folder, or with ``--postgres`` a new PostgreSQL
database dropped afterwards), connects two bots per game from this process, lets them
play random legal Network moves as fast as the server allows for a fixed window, and
prints:

- moves per second, and p50 / p99 of the time from a bot sending a move to its
  opponent receiving the ``move_made`` (stored before it is sent);
- the server process's CPU time per move (user and system, read from ``/proc``);
- the server's memory per connection (resident memory before and after connecting);
- the server's event-loop lag (p99 and worst wake-up delay) during the window.

With ``--relay``, each measurement is paired with one of a bare aiohttp relay (see
``bench/relay.py``: paired sockets forwarding each frame, no parsing, no storage) under
the same load, and the ratios are printed. With ``--baseline SRC``, a second Gamut
from the source tree ``SRC`` (another checkout) is measured in the same rounds, for
before-and-after figures. ``--rounds N`` repeats every measurement N times, in turn,
and prints medians. One more run plays 10 games while the AI thinks in other games
(level 8, both workers busy), to show the loop's lag and the moves' latency with
searches running; ``--ai-games 0`` skips it. The raw aiohttp WebSocket echo round trip
is printed last (``--no-echo`` skips it).

Usage: ``python bench/server.py [--games 10 100 1000] [--seconds 8] [--tmpfs |
--postgres URL] [--relay] [--baseline SRC] [--rounds N] [--no-echo]``.
Every run is bounded in time; only loopback addresses are used.

The bots play game after game (a seek by one, accepted by the other). The mover stamps
each move when it sends it and the opponent stamps the ``move_made`` it receives, so
both ends of every latency use the same clock of this process.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp
from bots import AI_SEEK, SEEKS, connect_bots, play_ai, play_pair
from loadgen import (
    Server,
    Tally,
    bench_database,
    cancel,
    percentile,
    server_process,
    wait_seated,
)
from peer_servers import PEERS, install, run_peer
from relay import echo_server, print_echo, recorded_games, relay_pair, relay_server

WARM_UP_LIMIT = 60.0
"""Seconds to wait at most for every game to start before measuring."""

SETTLE_S = 1.0
"""Seconds of play before the window opens."""

Row = dict[str, Any]


async def health(http: aiohttp.ClientSession, base: str) -> dict[str, Any]:
    """The server's ``/health``."""
    async with http.get(base + "/health") as response:
        body: dict[str, Any] = await response.json()
        return body


def gamut_command(db: str, workers: int) -> list[str]:
    """The command that starts a Gamut server on a free loopback port."""
    command = [sys.executable, "-m", "gamut_server", "--host", "127.0.0.1", "--port", "0"]
    return [*command, "--db", db, "--quiet", "--ai-workers", str(workers)]


BENCH_LIMITS = (
    "connections=5000,unwelcomed=5000,unfinished=5000,opening=5000/5000,seeks=100000/100000"
)
"""Per-address limits raised for the benchmark, whose bots all connect from loopback
(servers that have no such limits ignore the variable)."""


def source_env(source: str | None) -> dict[str, str]:
    """The environment that runs Gamut from the source tree ``source`` (``None``: this
    one), with the benchmark's per-address limits."""
    env = {**os.environ, "GAMUT_LIMITS": BENCH_LIMITS}
    if source is None:
        return env
    root = Path(source).resolve()
    paths = [str(root / part) for part in ("engine", "protocol", "server")]
    old = os.environ.get("PYTHONPATH")
    return env | {"PYTHONPATH": os.pathsep.join([*paths, *([old] if old else [])])}


NATIVE = Path("engine/gamut_engine/native")
CORES = Path("engine/gamut_engine/games")


def give_compiled_core(source: str) -> None:
    """Let the tree ``source`` run with this tree's compiled Connect Five core when its
    C sources are the same, so that a baseline exported without a build is not measured
    on the pure-Python engine (a source export carries no built extension)."""
    here = Path(__file__).resolve().parent.parent
    theirs = Path(source).resolve()
    if any((theirs / CORES).glob("_connect5_core*.so")):
        return
    built = sorted((here / CORES).glob("_connect5_core*.so"))
    if built and same_files(here / NATIVE, theirs / NATIVE):
        (theirs / CORES / built[0].name).symlink_to(built[0])
        return
    print(f"note: {source} runs without a compiled Connect Five core", flush=True)


def same_files(one: Path, other: Path) -> bool:
    """Whether two folders hold the same files with the same contents."""
    ours = {path.relative_to(one): path.read_bytes() for path in one.rglob("*.[ch]")}
    theirs = {path.relative_to(other): path.read_bytes() for path in other.rglob("*.[ch]")}
    return ours == theirs


async def run_games(
    games: int,
    seconds: float,
    db: str,
    ai_games: int,
    source: str | None = None,
    seek: dict[str, Any] = SEEKS["network"],
) -> Row:
    """One run: ``games`` bot games (and ``ai_games`` against the AI) for ``seconds``."""
    command = gamut_command(db, 2 if ai_games else 0)
    connector = aiohttp.TCPConnector(limit=0)
    async with (
        server_process(command, r"connect to ws://(\S+)/ws", source_env(source)) as server,
        aiohttp.ClientSession(connector=connector) as http,
    ):
        base = f"http://{server.address}"
        url = f"ws://{server.address}/ws"
        before = await health(http, base)
        version = int(before["protocol"])
        bots = await connect_bots(http, url, [f"b{n}" for n in range(2 * games)], version)
        connected = await health(http, base)
        thinkers = await connect_bots(http, url, [f"t{n}" for n in range(ai_games)], version)
        tally, stop = Tally(), asyncio.Event()
        tasks: list[asyncio.Task[Any]] = [
            asyncio.create_task(play_pair(bots[2 * n], bots[2 * n + 1], tally, stop, seek, n))
            for n in range(games)
        ]
        tasks += [
            asyncio.create_task(play_ai(bot, AI_SEEK, stop, random.Random(n)))
            for n, bot in enumerate(thinkers)
        ]
        await wait_seated(tally, 2 * games, WARM_UP_LIMIT)
        await asyncio.sleep(SETTLE_S)
        await health(http, base)
        row = await _measure(server, tally, seconds, lambda: _watch(http, base, seconds))
        end = await health(http, base)
        stop.set()
        await cancel(tasks)
        await asyncio.gather(*(bot.ws.close() for bot in [*bots, *thinkers]))
    per_connection = (connected["rss_bytes"] - before["rss_bytes"]) / max(1, 2 * games)
    return row | {
        "kib_per_connection": per_connection / 1024,
        "lag_p99_ms": end["loop_lag_p99_ms"],
        "lag_max_ms": end["loop_lag_max_ms"],
    }


async def run_relay(games: int, seconds: float, recorded: list[list[str]]) -> Row:
    """One run of the bare relay: ``games`` pairs replaying recorded games for ``seconds``."""
    command = [sys.executable, __file__, "--relay-server"]
    connector = aiohttp.TCPConnector(limit=0)
    async with (
        server_process(command, r"connect to (ws://\S+/relay)") as server,
        aiohttp.ClientSession(connector=connector) as http,
    ):
        names = [str(n // 2) for n in range(2 * games)]
        sockets = await _connect_relay(http, server.address, names)
        tally, stop = Tally(), asyncio.Event()
        pairs = [(sockets[2 * n], sockets[2 * n + 1]) for n in range(games)]
        tasks = [
            asyncio.create_task(relay_pair(pair, tally, stop, recorded, n))
            for n, pair in enumerate(pairs)
        ]
        await asyncio.sleep(SETTLE_S)
        row = await _measure(server, tally, seconds, lambda: asyncio.sleep(seconds))
        stop.set()
        await cancel(tasks)
        await asyncio.gather(*(ws.close() for ws in sockets))
    return row


async def _connect_relay(
    http: aiohttp.ClientSession, url: str, names: list[str]
) -> list[aiohttp.ClientWebSocketResponse]:
    """Connect a socket per name to the relay, a hundred at a time, in order."""
    sockets: list[aiohttp.ClientWebSocketResponse] = []
    for start in range(0, len(names), 100):
        chunk = names[start : start + 100]
        sockets += await asyncio.gather(*(http.ws_connect(f"{url}/{n}") for n in chunk))
    return sockets


async def _measure(server: Server, tally: Tally, seconds: float, wait: Any) -> Row:
    """Measure moves, latencies and the server's CPU while ``wait()`` runs."""
    cpu, started, client_cpu = server.cpu_seconds(), time.perf_counter(), time.process_time()
    tally.measuring = True
    busy = await wait()
    tally.measuring = False
    elapsed = time.perf_counter() - started
    cpu = server.cpu_seconds() - cpu
    return {
        "moves_per_s": tally.moves / elapsed,
        "p50_ms": percentile(tally.latencies_ms, 0.50),
        "p99_ms": percentile(tally.latencies_ms, 0.99),
        "server_cpu": cpu / elapsed,
        "cpu_per_move_ms": 1000 * cpu / max(1, tally.moves),
        "client_cpu": (time.process_time() - client_cpu) / elapsed,
        "ai_busy": busy or 0.0,
        "errors": len(tally.errors),
        "error_codes": sorted(set(tally.errors)),
    }


async def _watch(http: aiohttp.ClientSession, base: str, seconds: float) -> float:
    """Wait ``seconds``; the share of that time the AI was thinking, sampled every 0.25 s."""
    samples, thinking = 0, 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        await asyncio.sleep(0.25)
        samples += 1
        thinking += (await health(http, base))["ai_thinking"] > 0
    return thinking / max(1, samples)


async def gamut_row(args: argparse.Namespace, games: int, ai: int, source: str | None) -> Row:
    """One Gamut run on a fresh database."""
    root = "/dev/shm" if args.tmpfs else None
    with tempfile.TemporaryDirectory(dir=root) as folder:
        async with bench_database(args.postgres, Path(folder)) as db:
            return await run_games(games, args.seconds, db, ai, source, SEEKS[args.game])


def median_row(rows: Sequence[Row]) -> Row:
    """The median of each figure over ``rows`` (errors are summed)."""
    merged: Row = {}
    for key, value in rows[0].items():
        if isinstance(value, int | float) and key != "errors":
            merged[key] = statistics.median(row[key] for row in rows)
    merged["errors"] = sum(row["errors"] for row in rows)
    merged["error_codes"] = sorted({code for row in rows for code in row["error_codes"]})
    return merged


HEADER = (
    f"{'server':>8} {'games':>6} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
    f"{'CPU/move':>9} {'srv CPU':>8} {'bots CPU':>8} {'KiB/conn':>9} {'lag p99':>8} {'AI busy':>8} "
    f"{'errors':>6}"
)


def print_row(name: str, games: int, row: Row) -> None:
    """Print one line of the table."""
    kib = f"{row['kib_per_connection']:>9.1f}" if "kib_per_connection" in row else " " * 9
    lag = f"{row['lag_p99_ms']:>8.1f}" if "lag_p99_ms" in row else " " * 8
    print(
        f"{name:>8} {games:>6} {row['moves_per_s']:>8,.0f} {row['p50_ms']:>8.1f} "
        f"{row['p99_ms']:>8.1f} {row['cpu_per_move_ms']:>7.3f}ms {row['server_cpu']:>8.0%} "
        f"{row['client_cpu']:>8.0%} "
        f"{kib} {lag} {row['ai_busy']:>8.0%} {row['errors']:>6} {' '.join(row['error_codes'])}",
        flush=True,
    )


def print_ratios(name: str, gamut: Row, relay: Row, base: str = "relay") -> None:
    """Print how ``gamut`` compares with ``base`` (the relay, or a peer)."""
    throughput = gamut["moves_per_s"] / max(relay["moves_per_s"], 1e-9)
    cpu = gamut["cpu_per_move_ms"] / max(relay["cpu_per_move_ms"], 1e-9)
    p50 = gamut["p50_ms"] / max(relay["p50_ms"], 1e-9)
    p99 = gamut["p99_ms"] / max(relay["p99_ms"], 1e-9)
    print(
        f"{'':>8} {name} / {base}: throughput {throughput:.0%}, CPU per move {cpu:.1f}x, "
        f"p50 {p50:.1f}x, p99 {p99:.1f}x",
        flush=True,
    )


async def compare(args: argparse.Namespace, games: int, recorded: list[list[str]]) -> None:
    """Measure every server at ``games`` concurrent games, in turn, ``args.rounds`` times."""
    servers: list[tuple[str, str | None]] = [("gamut", None)]
    if args.baseline:
        give_compiled_core(args.baseline)
        servers.append(("baseline", args.baseline))
    rows: dict[str, list[Row]] = {name: [] for name, _ in servers}
    if args.relay:
        rows["relay"] = []
    peers = [peer for name in args.peer for peer in PEERS[name]]
    rows |= {peer.name: [] for peer in peers}
    for round_number in range(args.rounds):
        order = servers if round_number % 2 == 0 else servers[::-1]
        for name, source in order:
            rows[name].append(await gamut_row(args, games, 0, source))
        if args.relay:
            rows["relay"].append(await run_relay(games, args.seconds, recorded))
        for peer in peers:
            rows[peer.name].append(await run_peer(peer, games, args.seconds, SETTLE_S))
    medians = {name: median_row(runs) for name, runs in rows.items()}
    for name, row in medians.items():
        print_row(name, games, row)
    for base in ["relay"] * args.relay + [peer.name for peer in peers]:
        if not medians[base]["moves_per_s"]:
            continue  # nothing measured (its games were not all seated in time)
        for name, _ in servers:
            print_ratios(name, medians[name], medians[base], base)


async def main(args: argparse.Namespace) -> None:
    """Run every measurement and print the tables."""
    database = "PostgreSQL" if args.postgres else "SQLite"
    print(
        f"Gamut server benchmark: {args.seconds:g} s per run, {args.rounds} round(s), "
        f"{args.game} bots, {database}; medians over rounds"
    )
    print(HEADER)
    recorded = recorded_games(name=args.game) if args.relay else []
    if args.peer:
        install()
    for games in args.games:
        await compare(args, games, recorded)
    if args.ai_games:
        print_row("gamut+AI", 10, await gamut_row(args, 10, args.ai_games, None))
    if not args.no_echo:
        await print_echo(args.games, min(args.seconds, 5.0), __file__)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument(
        "--game", choices=sorted(SEEKS), help="what is played (network; connect5 with --peer)"
    )
    parser.add_argument("--seconds", type=float, default=8.0, help="measured window per run")
    parser.add_argument("--rounds", type=int, default=1, help="measurements of each (medians)")
    parser.add_argument("--ai-games", type=int, default=4, help="AI games in the AI run (0: none)")
    parser.add_argument("--tmpfs", action="store_true", help="keep the database in /dev/shm")
    parser.add_argument("--postgres", metavar="URL", help="use a new database on this server")
    parser.add_argument("--relay", action="store_true", help="compare with a bare relay")
    parser.add_argument(
        "--peer",
        action="append",
        default=[],
        choices=sorted(PEERS),
        help="also measure this other server (Connect Five; repeatable)",
    )
    parser.add_argument("--baseline", metavar="SRC", help="also measure Gamut from this tree")
    parser.add_argument("--no-echo", action="store_true", help="skip the raw echo figures")
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--relay-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.game is None:
        args.game = "connect5" if args.peer else "network"
    if args.peer and args.game != "connect5":
        parser.error("the peers play Connect Five: --peer needs --game connect5")
    return args


if __name__ == "__main__":
    arguments = parse_args()
    if arguments.echo_server:
        asyncio.run(echo_server())
    elif arguments.relay_server:
        asyncio.run(relay_server())
    else:
        asyncio.run(main(arguments))
