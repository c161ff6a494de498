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
from tests.cluster.nodes import cluster_database, forget_cluster, new_cluster_name, node, post_json
from tests.server.live import Client, read_until_closed

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
