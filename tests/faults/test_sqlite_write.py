"""A SQLite file that refuses a write for a while (another process's exclusive lock on it,
or the file made immutable): the move is refused in a sentence, the opponent and a
spectator are told the game waits, the stored game and what players see agree, and
once the file takes writes again the same move is played and the game finishes."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest

from gamut_server.rooms.rollback import WAITING
from tests.faults.sqlite_faults import can_make_immutable, immutable, locked
from tests.faults.story import (
    FISCHER,
    RECOVERY_WAIT,
    check_record,
    get_json,
    move_until_stored,
    play_seen,
    refused_for_storage,
    whole_game,
)
from tests.server.live import close_all, connect, live_server, play, server_config, start_game

FAULTS: dict[str, Callable[[Path], contextlib.AbstractContextManager[None]]] = {
    "locked": locked,
    "immutable": immutable,
}

BEFORE_FAULT = 3
"""Moves played before the file refuses writes: then it is Black's turn."""


@pytest.mark.parametrize("fault", sorted(FAULTS))
async def test_a_write_refused_by_the_file_leaves_the_game_playable(
    tmp_path: Path, fault: str
) -> None:
    if fault == "immutable" and not can_make_immutable(tmp_path):
        pytest.skip("chattr +i does not work here (it needs root and a file system with it)")
    config = server_config(tmp_path)
    db = Path(str(config.db))
    moves = whole_game()
    async with live_server(config) as server:
        ada, bob, cyd = [await connect(server, name) for name in ("ada", "bob", "cyd")]
        try:
            room_id, _, _ = await start_game(ada, bob, time_control=FISCHER)
            await cyd.send({"type": "join", "id": "j", "room_id": room_id, "role": "spectator"})
            await cyd.expect("room_snapshot", room_id=room_id)
            players = (ada, bob)
            told = []
            for ply in range(BEFORE_FAULT):
                others = [players[1 - ply % 2], cyd]
                told.append(await play_seen(players[ply % 2], others, room_id, moves[ply], ply))
            base = str(server.make_url("")).rstrip("/")
            with FAULTS[fault](db):
                move = {"type": "move", "id": "lost", "room_id": room_id, "ply": BEFORE_FAULT}
                await bob.send({**move, "move": moves[BEFORE_FAULT]})
                await refused_for_storage(bob, [ada, cyd], room_id, "lost")
            stored = await get_json(base, f"/api/games/{room_id}")
            assert len(stored["moves"]) == BEFORE_FAULT
            await ada.send({"type": "join", "id": "r", "room_id": room_id, "role": "player"})
            seen = await ada.expect("room_snapshot", reply_to="r")
            assert [m["move"] for m in seen["moves"]] == list(moves[:BEFORE_FAULT])
            told.append(await move_until_stored(bob, room_id, BEFORE_FAULT, moves[BEFORE_FAULT]))
            for ply in range(BEFORE_FAULT + 1, len(moves)):
                told.append(await play(players[ply % 2], room_id, moves[ply], ply))
            over = await cyd.expect("game_over", room_id=room_id)
            assert over["result"]["winner"] == 0
            record = await get_json(base, f"/api/games/{room_id}")
            check_record(record, told, moves)
            assert record["status"] == "finished"
        finally:
            await close_all([ada, bob, cyd])


async def test_a_flag_that_falls_while_the_file_refuses_writes_ends_the_game_later(
    tmp_path: Path,
) -> None:
    fault = immutable if can_make_immutable(tmp_path) else locked
    config = server_config(tmp_path)
    async with live_server(config) as server:
        ada, bob = [await connect(server, name) for name in ("ada", "bob")]
        try:
            per_move = {"kind": "per_move", "move_ms": 1_000}
            room_id, _, _ = await start_game(ada, bob, time_control=per_move)
            await play_seen(ada, [bob], room_id, whole_game()[0], 0)
            with fault(Path(str(config.db))):
                for player in (ada, bob):
                    notice = await player.expect("error", "game_over", room_id=room_id)
                    assert notice["type"] == "error", notice
                    assert notice["message"] == WAITING
            for player in (ada, bob):
                over = await player.expect("game_over", room_id=room_id, timeout=RECOVERY_WAIT)
                assert (over["result"]["winner"], over["result"]["reason"]) == (0, "timeout")
            base = str(server.make_url("")).rstrip("/")
            record = await get_json(base, f"/api/games/{room_id}")
            assert (record["status"], record["result"]["reason"]) == ("finished", "timeout")
            assert len(record["moves"]) == 1
        finally:
            await close_all([ada, bob])
