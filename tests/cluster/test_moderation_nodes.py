"""A ban made through one node of a cluster ends the banned player's session on another,
and a sign-in there is refused: each node reads the shared audit log."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import urllib.request
from pathlib import Path

import pytest

from gamut_protocol import PROTOCOL_VERSION
from gamut_server.storage import Store
from tests.cluster.nodes import (
    NO_WORKERS,
    cluster_database,
    forget_cluster,
    leading,
    new_cluster_name,
    node,
    post_json,
)
from tests.cluster.test_blocks_nodes import _client, _seen_by
from tests.server.live import Client, close_all, read_until_closed
from tests.server.test_blocks import answer_to

pytestmark = pytest.mark.timeout(240)

V6 = {"protocol": PROTOCOL_VERSION}


def _post_as(url: str, body: dict[str, str], secret: str) -> tuple[int, dict[str, str]]:
    """POST ``body`` as JSON with ``secret`` as the bearer session."""
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {secret}"}
    call = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(call, timeout=10) as answer:
        return answer.status, json.load(answer)


async def test_a_ban_through_one_node_ends_the_session_on_another(tmp_path: Path) -> None:
    async with cluster_database() as db:
        cluster = new_cluster_name()
        try:
            with contextlib.ExitStack() as stack:
                one = stack.enter_context(node(db, cluster, "n1", tmp_path))
                two = stack.enter_context(node(db, cluster, "n2", tmp_path))
                status, made = post_json(
                    one,
                    "/api/signup",
                    {"name": "Mo", "password": "a long password", "session": "token"},
                )
                assert status == 201, made
                grant = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "gamut_client.cli", "mod", "grant", "mo", "--db", db
                )
                assert await grant.wait() == 0
                pest = await Client.connect(two.ws_url)
                await pest.hello("pest", **V6)
                ban = {"name": "pest", "reason": "abuse", "for": "1h"}
                status, done = await asyncio.to_thread(
                    _post_as, f"{one.http_url}/api/mod/ban", ban, made["token"]
                )
                assert status == 200, done
                ending = await read_until_closed(pest)
                assert ending[-1]["code"] == "banned"
                again = await Client.connect(two.ws_url)
                await again.send({"type": "hello", "id": "h", "name": "pest", **V6})
                assert (await again.expect("error", reply_to="h"))["code"] == "banned"
                await again.close()
        finally:
            forget_cluster(cluster)


async def test_a_report_on_any_node_keeps_the_lobby_s_latest_lines(tmp_path: Path) -> None:
    async with cluster_database() as db:
        cluster = new_cluster_name()
        try:
            with contextlib.ExitStack() as stack:
                nodes = [
                    stack.enter_context(node(db, cluster, name, tmp_path, *NO_WORKERS))
                    for name in ("n1", "n2")
                ]
                leader = await leading(nodes)
                [follower] = [served for served in nodes if served is not leader]
                ada, bob = await _client(follower, "ada"), await _client(leader, "bob")
                pest = await _client(leader, "pest")
                await _seen_by(pest, ada, "lobby spam")
                await bob.expect("chat_line", text="lobby spam")
                report = {"type": "report", "id": "r", "name": "pest", "reason": "spam"}
                reported = [await answer_to(client, report) for client in (ada, bob)]
                async with await Store.open(db) as store:
                    kept = {report.id: report for report in await store.reports()}
                for received in reported:
                    context = kept[received["report_id"]].context
                    assert context["where"] == "lobby"
                    assert context["chat"][-1] == {"author": "pest", "text": "lobby spam"}
                await close_all([ada, bob, pest])
        finally:
            forget_cluster(cluster)
