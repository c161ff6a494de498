"""In a game without a clock, leaving never loses at once: the opponent wins only after
the long untimed grace (72 hours by default), while a timed game keeps the ordinary one.
Against the server's AI, which waits for nobody, the untimed grace is an hour."""

from __future__ import annotations

from pathlib import Path

from gamut_server.config import UNTIMED_GRACE_MS
from gamut_server.rooms import Room, RoomSpec, SeatSpec, Who
from tests.server.hostile.http import http
from tests.server.live import (
    WHITE_WINS,
    close_all,
    connect,
    live_server,
    play,
    server_config,
    start_game,
)

TIMED = {"kind": "per_move", "move_ms": 600_000}


async def test_a_closed_laptop_does_not_lose_an_untimed_game(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path, grace_ms=200)) as server:
        ada, bob = await connect(server, "ada"), await connect(server, "bob")
        untimed, _, _ = await start_game(ada, bob)
        timed, _, _ = await start_game(ada, bob, time_control=TIMED)
        for room_id in (untimed, timed):
            await play(ada, room_id, WHITE_WINS[0], 0)
        await bob.close()
        gone = {
            event["room_id"]: event["grace_ms"]
            for event in [await ada.expect("player_disconnected") for _ in range(2)]
        }
        assert gone == {untimed: UNTIMED_GRACE_MS, timed: 200}
        over = await ada.expect("game_over")
        assert (over["room_id"], over["result"]["reason"]) == (timed, "abandoned")
        _, rooms = await http(server, "GET", "/api/rooms")
        status = {room["room_id"]: room["status"] for room in rooms}
        assert status[untimed] == "running"
        await close_all([ada])


def test_the_opponent_wins_an_untimed_game_only_after_the_untimed_grace() -> None:
    ada, bob = Who(conn=1, name="ada", kind="human"), Who(conn=2, name="bob", kind="human")
    spec = RoomSpec(
        game="network", options={}, seats=(SeatSpec("ada", "human"), SeatSpec("bob", "human"))
    )
    room = Room("r1", spec)
    room.start((ada, bob), 0)
    room.disconnected(bob, 1_000)
    assert room.next_deadline_ms() == 1_000 + UNTIMED_GRACE_MS
    assert room.expire(UNTIMED_GRACE_MS) == []
    assert not room.over
    room.expire(1_000 + UNTIMED_GRACE_MS)
    result = room.match.result
    assert result is not None
    assert (result.winner, result.reason) == (0, "abandoned")


async def test_a_closed_tab_on_an_untimed_ai_game_leaves_the_lobby(tmp_path: Path) -> None:
    config = server_config(tmp_path, ai_workers=1, untimed_ai_grace_ms=300)
    async with live_server(config) as server:
        ada, cyd = await connect(server, "ada"), await connect(server, "cyd")
        seek = {"type": "seek", "id": "ai", "game": "network", "side": 0}
        await ada.send({**seek, "opponent": {"kind": "ai", "level": 1}})
        room_id = (await ada.expect("room_snapshot", reply_to="ai"))["room_id"]
        await cyd.expect("room_updated")
        await ada.close()
        # The room leaves the lobby once the AI has won: it is no longer listed as running.
        await cyd.expect("room_removed", room_id=room_id)
        _, rooms = await http(server, "GET", "/api/rooms")
        assert {room["room_id"]: room["status"] for room in rooms}[room_id] == "finished"
        _, record = await http(server, "GET", f"/api/games/{room_id}")
        assert (record["result"]["winner"], record["result"]["reason"]) == (1, "abandoned")
        await close_all([cyd])
