"""``/metrics`` of every node of a cluster says which node leads the lobby: they agree on
its number, and exactly one says it leads."""

from __future__ import annotations

import asyncio
import contextlib
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.cluster.nodes import (
    cluster_database,
    forget_cluster,
    health,
    new_cluster_name,
    node,
)
from tests.e2e.served import Served

pytestmark = pytest.mark.timeout(240)


def leadership(served: Served) -> tuple[float, float]:
    """The node's ``gamut_cluster_leader`` and ``gamut_cluster_leading``."""
    with urllib.request.urlopen(f"{served.http_url}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    found = {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
    return found["gamut_cluster_leader"], found["gamut_cluster_leading"]


async def test_every_node_s_metrics_name_the_lobby_s_leader(tmp_path: Path) -> None:
    async with cluster_database() as db:
        cluster = new_cluster_name()
        try:
            with contextlib.ExitStack() as stack:
                nodes = [stack.enter_context(node(db, cluster, f"n{n}", tmp_path)) for n in (1, 2)]
                for _ in range(1000):
                    seen = [await asyncio.to_thread(leadership, served) for served in nodes]
                    if seen[0][0] and seen[0][0] == seen[1][0]:
                        break
                    await asyncio.sleep(0.05)
                leader = seen[0][0]
                assert leader in {health(served)["cluster"]["node_number"] for served in nodes}
                assert sorted(leading for _, leading in seen) == [0.0, 1.0]
                for served, (_, leading) in zip(nodes, seen, strict=True):
                    assert (health(served)["cluster"]["node_number"] == leader) == (leading == 1.0)
        finally:
            forget_cluster(cluster)
