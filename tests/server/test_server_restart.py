"""A server stopped mid-game and started again on the same database: the game goes on."""

from __future__ import annotations

from pathlib import Path

from tests.server.live import (
    WHITE_WINS,
    close_all,
    connect,
    live_server,
    play,
    server_config,
    start_game,
)


async def test_a_game_survives_a_restart_and_finishes(tmp_path: Path, server_db: str) -> None:
    config = server_config(tmp_path, db=server_db)
    async with live_server(config) as server:
        white, black = await connect(server, "ada"), await connect(server, "bob")
        room_id, _, _ = await start_game(
            white, black, time_control={"kind": "per_move", "move_ms": 60_000}
        )
        for ply, text in enumerate(WHITE_WINS[:5]):
            mover = (white, black)[ply % 2]
            await play(mover, room_id, text, ply)
        await black.send({"type": "chat", "room_id": room_id, "text": "see you after the break"})
        await white.expect("chat_line", room_id=room_id)
        tokens = {"ada": white.token, "bob": black.token}
        last_seen = max(event.get("seq", 0) for event in white.received)
    await close_all([white, black])

    async with live_server(config) as server:
        white = await connect(server)
        welcome = await white.hello("ada", token=tokens["ada"])
        assert welcome["rooms"] == [room_id]
        black = await connect(server)
        await black.hello("bob", token=tokens["bob"])
        for client in (white, black):
            await client.send({"type": "resume", "room_id": room_id, "after_seq": 0})
            snapshot = await client.expect("room_snapshot", "move_made", room_id=room_id)
            if snapshot["type"] == "room_snapshot":
                assert [move["move"] for move in snapshot["moves"]] == list(WHITE_WINS[:5])
                assert snapshot["seq"] >= last_seen
                assert snapshot["chat"][-1]["text"] == "see you after the break"
                clocks = snapshot["clocks"]["remaining_ms"]
                assert all(0 < left <= 60_000 for left in clocks)
        for ply in range(5, len(WHITE_WINS)):
            mover = (white, black)[ply % 2]
            await play(mover, room_id, WHITE_WINS[ply], ply)
        over = await black.expect("game_over", room_id=room_id)
        assert (over["result"]["winner"], over["result"]["reason"]) == (0, "network")
    await close_all([white, black])

    async with live_server(config) as server:
        late = await connect(server, "cyd")
        welcome_rooms = (await late.expect("lobby_snapshot"))["rooms"]
        assert room_id not in [room["room_id"] for room in welcome_rooms]
        await late.close()
