"""A room's deadline timer over real sockets: kept across batches that leave it unchanged."""

from __future__ import annotations

import gc
from pathlib import Path

from gamut_server.collector import OLDER_THRESHOLDS, YOUNG_THRESHOLD, tuned_collector
from tests.server.live import WHITE_WINS, connect, live_server, play, server_config, start_game


async def test_a_grace_period_ends_the_game_though_chat_goes_on(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path, grace_ms=400)) as server:
        white, black = await connect(server, "ada"), await connect(server, "bob")
        long_moves = {"kind": "per_move", "move_ms": 600_000}  # untimed games wait for days
        room_id, _, _ = await start_game(white, black, time_control=long_moves)
        await play(white, room_id, WHITE_WINS[0], 0)
        await black.close()
        await white.expect("player_disconnected", room_id=room_id)
        for n in range(3):  # batches that leave the grace period's deadline as it is
            await white.send({"type": "chat", "room_id": room_id, "text": f"still here {n}"})
            await white.expect("chat_line", room_id=room_id, text=f"still here {n}")
        abandoned = await white.expect("game_over", room_id=room_id)
        assert (abandoned["result"]["winner"], abandoned["result"]["reason"]) == (0, "abandoned")
        await white.close()


async def test_the_collector_is_tuned_while_serving_and_restored_after() -> None:
    before = gc.get_threshold()
    async with tuned_collector():
        assert gc.get_threshold() == (YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
