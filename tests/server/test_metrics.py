"""``/metrics`` over real sockets: Prometheus' text, read by prometheus_client's own
parser, counting the moves of a game played; 404 to a client that is not local."""

from __future__ import annotations

import socket
from pathlib import Path

import aiohttp
from aiohttp.test_utils import TestServer
from prometheus_client.parser import text_string_to_metric_families

from tests.server.live import (
    WHITE_WINS,
    close_all,
    connect,
    live_server,
    play,
    server_config,
    start_game,
)


async def scrape(server: TestServer, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """``GET /metrics``: the status and the text."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(server.make_url("/metrics"), headers=headers or {}) as answer,
    ):
        return answer.status, await answer.text()


def samples(text: str) -> dict[str, float]:
    """Every sample's value by its name and labels, as prometheus_client parses the text."""
    found: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            found[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return found


async def test_metrics_count_a_game_s_moves_and_the_refusals(server: TestServer) -> None:
    status, before = await scrape(server)
    assert status == 200
    assert samples(before)["gamut_moves_total"] == 0
    ada, bob = await connect(server, "ada"), await connect(server, "bob")
    room_id, _, _ = await start_game(ada, bob)
    for ply, move in enumerate(WHITE_WINS[:-1]):
        await play((ada, bob)[ply % 2], room_id, move, ply)
    await ada.send({"type": "chat", "text": "\u202eevil"})
    await ada.expect("error")
    status, text = await scrape(server)
    found = samples(text)
    assert found["gamut_moves_total"] == len(WHITE_WINS) - 1
    assert found["gamut_move_latency_seconds_count"] == len(WHITE_WINS) - 1
    assert found["gamut_store_commit_seconds_count"] >= len(WHITE_WINS) - 1
    assert found["gamut_connections"] == 2
    assert found["gamut_players_online"] == 2
    assert found["gamut_rooms_running"] == 1
    assert found["gamut_open_reports"] == 0
    await close_all([ada, bob])


async def test_refusals_are_counted_by_limit(tmp_path: Path) -> None:
    from gamut_server.rooms.limits import Rate

    config = server_config(tmp_path, chat=Rate(1, 0.0001))
    async with live_server(config) as server:
        ada = await connect(server, "ada")
        for _ in range(3):
            await ada.send({"type": "chat", "text": "hi"})
        await ada.expect("error")
        found = samples((await scrape(server))[1])
        assert found["gamut_refusals_total{limit=chat}"] >= 1
        await ada.close()


async def test_metrics_are_not_found_by_a_client_elsewhere(tmp_path: Path) -> None:
    config = server_config(tmp_path, trusted_proxies=("127.0.0.1",))
    async with live_server(config) as server:
        status, _ = await scrape(server, {"X-Forwarded-For": "203.0.113.9"})
        assert status == 404
        status, _ = await scrape(server, {"X-Forwarded-For": "127.0.0.1"})
        assert status == 200


async def test_metrics_are_also_served_to_anyone_on_the_monitoring_address(
    tmp_path: Path,
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = server_config(tmp_path, metrics_listen=("127.0.0.1", port))
    async with live_server(config), aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{port}/metrics") as answer:
            assert answer.status == 200
            found = samples(await answer.text())
        assert found["gamut_connections"] == 0
        async with http.get(f"http://127.0.0.1:{port}/health") as answer:
            assert answer.status == 404


async def test_the_ai_s_searches_are_timed(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path, ai_workers=1)) as server:
        ada = await connect(server, "ada")
        seek = {"type": "seek", "id": "ai", "game": "network", "side": 1}
        await ada.send({**seek, "opponent": {"kind": "ai", "level": 1}})
        snapshot = await ada.expect("room_snapshot", reply_to="ai")
        await ada.expect("move_made", room_id=snapshot["room_id"], ply=0)
        found = samples((await scrape(server))[1])
        assert found["gamut_ai_search_seconds_count"] == 1
        assert found["gamut_moves_total"] == 1
        assert found["gamut_ai_waiting"] == 0
        await ada.close()
