"""Clusters of real ``gamut serve`` processes for tests: each node a process of its own,
all on one fresh PostgreSQL database and one Redis, under a cluster name of their own."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, Final

import pytest
import redis

from tests.e2e.served import Served, serve
from tests.server.storage_backends import postgres_database

REDIS_URL = os.environ.get("GAMUT_TEST_REDIS", "redis://127.0.0.1:6379/0")
"""The Redis the tests use (``GAMUT_TEST_REDIS`` overrides it)."""


NO_WORKERS: Final = ("--ai-workers", "0", "--analysis-workers", "0")
"""A node's options for a test with no game against the AI and none analysed: a node
without worker processes starts in a fraction of the CPU (three of them a node, idle,
made starting three nodes on a loaded machine take minutes), and one killed with SIGKILL
leaves no orphaned worker behind."""


def redis_url() -> str:
    """The test Redis's URL; skips the test where it is not reachable (fails under CI)."""
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        reason = f"Redis is not reachable at {REDIS_URL}: {error}"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason} (CI=true requires Redis)")
        pytest.skip(reason)
    return REDIS_URL


@contextlib.asynccontextmanager
async def cluster_database() -> AsyncIterator[str]:
    """A PostgreSQL database of the test's own (skipped without PostgreSQL outside CI)."""
    async with postgres_database() as url:
        yield url


def new_cluster_name() -> str:
    """A cluster name no other test run uses."""
    return f"test-{os.getpid()}-{secrets.token_hex(4)}"


@contextlib.contextmanager
def node(db: str, cluster: str, name: str, logs: Path, *extra: str) -> Iterator[Served]:
    """One node of ``cluster`` (stopped with SIGTERM at the end, unless killed before)."""
    folder = logs / name
    folder.mkdir(parents=True, exist_ok=True)
    arguments = ("--redis", redis_url(), "--node", name, "--cluster", cluster, *extra)
    with serve(db, *arguments, logs=folder, stop=signal.SIGKILL) as served:
        yield served


@contextlib.asynccontextmanager
async def running_nodes(logs: Path, count: int, *extra: str) -> AsyncIterator[list[Served]]:
    """``count`` nodes of a new cluster on a fresh database, named ``n1``, ``n2``..."""
    async with cluster_database() as db:
        cluster = new_cluster_name()
        try:
            with contextlib.ExitStack() as stack:
                yield [
                    stack.enter_context(node(db, cluster, f"n{i}", logs, *extra))
                    for i in range(1, count + 1)
                ]
        finally:
            forget_cluster(cluster)


async def leading(nodes: list[Served], away: int | None = None) -> Served:
    """The node every node of ``nodes`` names as the lobby's leader (other than node
    number ``away``), once they agree (within a minute)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while loop.time() < deadline:
        named = {(await asyncio.to_thread(health, served))["cluster"]["leader"] for served in nodes}
        number = named.pop() if len(named) == 1 else None
        found = [served for served in nodes if node_number(served) == number]
        if found and number != away:
            return found[0]
        await asyncio.sleep(0.05)
    raise AssertionError("no node leads the lobby")


def node_number(served: Served) -> int:
    """The node's number in its cluster."""
    number: int = health(served)["cluster"]["node_number"]
    return number


def health(served: Served) -> dict[str, Any]:
    """The node's ``/health``."""
    with urllib.request.urlopen(f"{served.http_url}/health", timeout=10) as answer:
        body: dict[str, Any] = json.load(answer)
    return body


def get_json(served: Served, path: str) -> Any:
    """A JSON answer of the node's HTTP API."""
    with urllib.request.urlopen(f"{served.http_url}{path}", timeout=10) as answer:
        return json.load(answer)


def post_json(served: Served, path: str, body: Any) -> tuple[int, Any]:
    """POST ``body`` as JSON to the node's HTTP API: the status and the JSON answer."""
    data = json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    call = urllib.request.Request(served.http_url + path, data, headers, method="POST")
    try:
        with urllib.request.urlopen(call, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as refusal:
        return refusal.code, json.load(refusal)


def forget_cluster(cluster: str) -> None:
    """Delete every Redis key of ``cluster``."""
    client = redis.Redis.from_url(redis_url())
    keys = list(client.scan_iter(f"{cluster}:*"))
    if keys:
        client.delete(*keys)


@contextlib.asynccontextmanager
async def three_nodes(logs: Path) -> AsyncIterator[list[Served]]:
    """Three nodes, n1 to n3, without AI or analysis workers, of a new cluster on a
    database of their own (its Redis keys deleted at the end)."""
    async with running_nodes(logs, 3, *NO_WORKERS) as nodes:
        yield nodes
