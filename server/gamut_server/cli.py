"""``gamut serve``: run the Gamut server.

Registered as a ``gamut.commands`` entry point (``serve = "gamut_server.cli:register"``);
``python -m gamut_server`` runs the same command without the ``gamut`` front end.
Settings come from the defaults, then ``GAMUT_HOST``, ``GAMUT_PORT`` and ``GAMUT_DB``,
then the command line.

Every ``gamut`` command line, ``--help`` included, imports this module to register the
command, so the server itself (aiohttp, the database, the rooms) is imported only by
the functions that run it. Alembic's own lines are silenced: the server says in one line
of its own when it makes or upgrades the database's tables.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gamut_server.config import ServerConfig

log = logging.getLogger("gamut_server")

SWITCH_INTERVAL_S = 0.0005
"""How often the interpreter lets another thread run (the default is 0.005 s)."""


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser("serve", help="run the Gamut server")
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gamut serve``."""
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1, env GAMUT_HOST)")
    parser.add_argument(
        "--port", type=int, help="TCP port, 0 for any free one (default 8080, env GAMUT_PORT)"
    )
    parser.add_argument(
        "--db", help="database: a SQLite file or a postgresql:// URL (default gamut.sqlite3)"
    )
    parser.add_argument(
        "--no-migrate",
        action="store_true",
        help="refuse to start on a database whose tables need upgrading (see gamut db)",
    )
    parser.add_argument(
        "--ai-workers", type=int, help="AI worker processes (default 2; 0 turns the AI off)"
    )
    parser.add_argument(
        "--analysis-workers",
        type=int,
        help="processes analysing finished games, at the lowest priority (default 1; 0: none)",
    )
    parser.add_argument(
        "--analysis-nice",
        type=int,
        help="how far below the server's the analysis workers' CPU priority is (default 19)",
    )
    parser.add_argument(
        "--analysis-work",
        type=int,
        help="work an analysis gives each position, about one a node searched (default 10000)",
    )
    parser.add_argument("--grace", type=float, help="seconds a dropped player has to come back")
    parser.add_argument(
        "--untimed-grace",
        type=float,
        help="hours a player of an untimed game may be away before the opponent wins (default 72)",
    )
    parser.add_argument(
        "--untimed-ai-grace",
        type=float,
        help="minutes the player of an untimed game against the AI may be away before the AI "
        "wins (default 60)",
    )
    parser.add_argument(
        "--hello-timeout", type=float, help="seconds a new connection has to say hello (default 10)"
    )
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one limit, e.g. connections=200 or seeks=50/2 (see docs/server.md; "
        "env GAMUT_LIMITS)",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy whose X-Forwarded-For names the client (env GAMUT_TRUSTED_PROXIES)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="join the cluster of nodes meeting in this Redis (env GAMUT_REDIS; docs/deploy.md)",
    )
    parser.add_argument(
        "--node", help="this node's name in the cluster (default: host name and process id)"
    )
    parser.add_argument(
        "--cluster",
        metavar="NAME",
        help="the cluster's name, prefixing its Redis keys (default gamut, env GAMUT_CLUSTER)",
    )
    parser.add_argument(
        "--metrics-listen",
        metavar="HOST:PORT",
        help="also serve /metrics to anyone at this address, for a monitoring network "
        "(env GAMUT_METRICS_LISTEN; the main port serves it to local clients only)",
    )
    parser.add_argument("--quiet", action="store_true", help="log warnings only")


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    """The settings: defaults, then the environment, then the command line."""
    from gamut_server.config import ServerConfig

    try:
        config = ServerConfig.from_env()
        for setting in args.limit:
            config = config.with_limit(setting)
        config = config.with_overrides(host=args.host, port=args.port, db=args.db)
        config = _with_cluster(config, args)
        _check_cluster_database(config)
        return replace(config, **_changes(args, config))
    except ValueError as error:
        raise SystemExit(f"gamut serve: {error}") from None


def _with_cluster(config: ServerConfig, args: argparse.Namespace) -> ServerConfig:
    """The settings as a node of the cluster the command line (or the environment)
    names, if any; raises ``ValueError`` for ``--node`` or ``--cluster`` without Redis."""
    if args.redis is None and config.cluster is None:
        if args.node or args.cluster:
            raise ValueError("--node and --cluster need --redis: a cluster meets in Redis")
        return config
    node = args.node or os.environ.get("GAMUT_NODE")
    name = args.cluster or os.environ.get("GAMUT_CLUSTER")
    return config.with_cluster(args.redis, node, name)


def _check_cluster_database(config: ServerConfig) -> None:
    """Refuse a cluster node on SQLite: the nodes must share one database server."""
    from gamut_server.storage.urls import database_url, is_sqlite

    if config.cluster is not None and is_sqlite(database_url(config.db)):
        raise ValueError(
            "the nodes of a cluster share one database: give --db postgresql://…, not SQLite"
        )


def _changes(args: argparse.Namespace, config: ServerConfig) -> dict[str, Any]:
    """The settings the command line gives beyond address, port, database and limits."""
    changes: dict[str, Any] = {}
    if args.no_migrate:
        changes["migrate"] = False
    if args.ai_workers is not None:
        changes["ai_workers"] = args.ai_workers
    if args.grace is not None:
        changes["grace_ms"] = round(args.grace * 1000)
    analyses = {
        "workers": args.analysis_workers,
        "work": args.analysis_work,
        "nice": args.analysis_nice,
    }
    if any(value is not None for value in analyses.values()):
        given = {name: value for name, value in analyses.items() if value is not None}
        changes["analyses"] = replace(config.analyses, **given)
    if args.untimed_grace is not None:
        changes["untimed_grace_ms"] = round(args.untimed_grace * 3_600_000)
    if args.untimed_ai_grace is not None:
        changes["untimed_ai_grace_ms"] = round(args.untimed_ai_grace * 60_000)
    if args.hello_timeout is not None:
        changes["hello_timeout"] = args.hello_timeout
    if args.trusted_proxy:
        changes["trusted_proxies"] = tuple(args.trusted_proxy)
    if args.metrics_listen:
        from gamut_server.config import host_port

        changes["metrics_listen"] = host_port(args.metrics_listen)
    return changes


def check_games() -> None:
    """Read every installed game now: one the server cannot host stops it with a sentence
    at start-up, never in the middle of a match."""
    from gamut_engine.registry import GAMES, RegistryError

    try:
        list(GAMES)
    except RegistryError as error:
        raise SystemExit(f"gamut serve: {error}") from None


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; returns the exit status."""
    from gamut_server.storage import SchemaError

    check_games()
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("alembic").setLevel(logging.WARNING)
    config = config_from_args(args)
    try:
        with (
            contextlib.suppress(KeyboardInterrupt),
            asyncio.Runner(loop_factory=loop_factory()) as loop,
        ):
            loop.run(serve(config))
    except SchemaError as error:
        raise SystemExit(f"gamut serve: {error}") from None
    return 0


LOOP_ENV = "GAMUT_LOOP"
"""Environment variable naming the event loop: ``uvloop`` (the default where it is
installed) or ``asyncio`` (the standard library's)."""


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """How the server's event loop is made: uvloop's where it is installed (a move cost
    3-6% less CPU with it in the server benchmark), unless :data:`LOOP_ENV` asks for
    ``asyncio``; ``None``: the standard loop."""
    wanted = os.environ.get(LOOP_ENV, "uvloop")
    if wanted not in ("uvloop", "asyncio"):
        raise SystemExit(f"gamut serve: {LOOP_ENV} must be uvloop or asyncio, not {wanted!r}")
    if wanted == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


async def serve(config: ServerConfig) -> None:
    """Run the server until SIGINT or SIGTERM, then shut it down cleanly."""
    from aiohttp import web

    from gamut_server import keys
    from gamut_server.app import build_app
    from gamut_server.edge.descriptors import AcceptErrors, raise_descriptor_limit
    from gamut_server.edge.guard import GuardedRunner
    from gamut_server.storage.urls import shown_url

    # The database driver works in a thread of its own that needs the interpreter lock
    # several times per write; with the event loop busy, the default 5 ms hand-over
    # interval would hold every write up for that long each time.
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    raise_descriptor_limit()
    AcceptErrors().install()
    runner = GuardedRunner(
        build_app(config), config.head_timeout, handle_signals=False, shutdown_timeout=5.0
    )
    await runner.setup()
    _freeze_startup_objects()
    try:
        sock = _listen(config.host, config.port)
        site = web.SockSite(runner, sock)
        await site.start()
        host, port = sock.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        node = runner.app.get(keys.CLUSTER)
        if node is not None:
            await node.membership.record_address(f"{shown}:{port}")
        print(f"Gamut serving on http://{shown}:{port}: connect to ws://{shown}:{port}/ws")
        print(f"open http://{shown}:{port}/ in a browser to play")
        print(f"games are kept in {shown_url(config.db)}")
        from gamut_engine.games import connect5_core

        slower = connect5_core.missing()
        if slower is not None:
            print(slower)
        sys.stdout.flush()
        await _until_signalled()
    finally:
        await runner.cleanup()


def _freeze_startup_objects() -> None:
    """Keep what exists after start-up (modules, schemas, the games' precomputed tables)
    out of every later garbage collection: a full collection walks all of it, which
    otherwise stops the event loop for a noticeable time now and then."""
    from gamut_server.rooms.catalog import game_infos

    game_infos()  # loads every game, so its tables are made now
    gc.collect()
    gc.freeze()


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: a free one, so it can be printed)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise SystemExit(f"gamut serve: cannot listen on {host}:{port}: {error}") from None
    sock.listen(1024)
    sock.setblocking(False)
    return sock


async def _until_signalled() -> None:
    """Wait for SIGINT or SIGTERM."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("shutting down")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gamut_server``: the ``serve`` command on its own."""
    parser = argparse.ArgumentParser(prog="gamut-server", description="Run the Gamut server.")
    add_arguments(parser)
    return run(parser.parse_args(argv))
