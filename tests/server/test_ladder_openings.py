"""A ladder pool with openings: each game starts from one, and a pair's next game with
the colours reversed starts from the same one."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer

from gamut_server.ladder.pools import PoolConfigError, pools_from_json
from tests.server.live import close_all, live_server, server_config
from tests.server.test_ladder_server import bot, join, paired, register

OPENINGS = [["h8", "h9", "i8"], ["g7", "g8"]]


@pytest.fixture
async def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[TestServer]:
    """A server with one Connect Five pool whose games start from two openings, the
    second read from an openings file."""
    openings = tmp_path / "openings.txt"
    openings.write_text("# from a file\nh8 h9 i8\ng7 g8\n")
    pools = {
        "tick_ms": 20,
        "pools": [
            {
                "pool": "c5",
                "game": "connect5",
                "time_control": {"kind": "per_move", "move_ms": 30000},
                "anchors": [],
                "openings": str(openings),
            }
        ],
    }
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(pools))
    monkeypatch.setenv("GAMUT_LADDER", str(path))
    async with live_server(server_config(tmp_path)) as running:
        yield running


def test_a_pool_refuses_an_opening_that_is_not_legal() -> None:
    pool = {"pool": "c5", "game": "connect5", "openings": [["h8"], ["h8", "h8"]]}
    with pytest.raises(PoolConfigError, match="opening 2"):
        pools_from_json([pool])
    assert pools_from_json([{**pool, "openings": OPENINGS}])[0].describe()["openings"] == 2


async def test_pairs_start_from_the_pool_openings(server: TestServer) -> None:
    ann = await bot(server, "ann", await register(server, "ann"))
    ben = await bot(server, "ben", await register(server, "ben"))
    for client in (ann, ben):
        await join(client, "c5")
    starts = []
    for _ in range(3):
        room, sides = await paired(ann, ben)
        snapshot = next(m for m in reversed(sides[0].received) if m.get("room_id") == room)
        moves = [move["move"] for move in snapshot["moves"]]
        first = str(sides[0].name)
        starts.append((first, moves))
        await sides[1].send({"type": "resign", "room_id": room})
        for client in (ann, ben):
            await client.expect("game_over", room_id=room)
    # A start is taken again when the pair's next game reverses the colours, else the
    # pool's next opening is taken.
    last: tuple[int, str] | None = None
    taken = 0
    for first, moves in starts:
        if last is not None and last[1] != first:
            index, last = last[0], None
        else:
            index, taken = taken, taken + 1
            last = (index, first)
        assert moves == OPENINGS[index % len(OPENINGS)], starts
    await close_all([ann, ben])
