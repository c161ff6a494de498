"""The browser page's routes on a live server: the page, its files, the security headers,
and the replay of a stored game."""

from __future__ import annotations

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from gamut_engine import load_game
from tests.server.live import (
    WHITE_WINS,
    close_all,
    connect,
    play,
    start_game,
)


async def fetch(server: TestServer, path: str) -> tuple[int, dict[str, str], bytes]:
    """GET ``path``: the status, headers and body."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(str(server.make_url(path))) as answer,
    ):
        return answer.status, dict(answer.headers), await answer.read()


@pytest.mark.parametrize("path", ["/", "/game/abc123", "/ladder"])
async def test_the_page_is_served_with_a_strict_policy(server: TestServer, path: str) -> None:
    status, headers, body = await fetch(server, path)
    assert status == 200
    assert headers["Content-Type"].startswith("text/html")
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert b'<script type="module" src="/web/js/main.js">' in body
    assert b"<script>" not in body
    assert b"style=" not in body


async def test_the_scripts_are_served_as_javascript(server: TestServer) -> None:
    status, headers, body = await fetch(server, "/web/js/main.js")
    assert status == 200
    assert "javascript" in headers["Content-Type"]
    assert b"import" in body
    assert headers["Content-Security-Policy"]
    assert headers["Cache-Control"] == "no-cache"
    missing, _, _ = await fetch(server, "/web/js/../../app.py")
    assert missing in (403, 404)


async def test_a_finished_game_replays_move_by_move(server: TestServer) -> None:
    ada, bob = await connect(server, "ada"), await connect(server, "bob")
    room_id, _, _ = await start_game(ada, bob, rated=False)
    for ply, move in enumerate(WHITE_WINS):
        await play((ada, bob)[ply % 2], room_id, move, ply)
    await ada.expect("game_over", room_id=room_id)
    await close_all([ada, bob])

    status, _, _ = await fetch(server, "/api/games/nosuchgame/replay")
    assert status == 404
    async with (
        aiohttp.ClientSession() as session,
        session.get(str(server.make_url(f"/api/games/{room_id}/replay"))) as answer,
    ):
        replay = await answer.json()
    assert replay["game"]["geometry"]["kind"] == "board"
    assert [move["move"] for move in replay["moves"]] == list(WHITE_WINS)
    cells = [cell for row in replay["game"]["geometry"]["rows"] for cell in row]
    assert replay["start"] == [None] * len(cells)
    board = list(replay["start"])
    for move in replay["moves"]:
        assert len(move["changes"]) == 1
        for index, owner in move["changes"]:
            board[index] = owner
    last = dict(zip(cells, board, strict=True))
    assert last["01"] == 0
    assert last["10"] == 1
    assert sum(owner is not None for owner in board) == len(WHITE_WINS)
    assert replay["moves"][0]["changes"] == [[cells.index("01"), 0]]
    assert replay["moves"][0]["cells"] == ["01"]
    assert replay["result"]["winner"] == 0
    assert replay["result"]["message"] == "White completes a network"
    assert len(replay["result"]["line"]) == 6


async def test_a_replayed_capture_changes_both_cells(server: TestServer) -> None:
    game = load_game("loa", size=6)
    state = game.initial_state()
    moves: list[str] = []
    while not any("x" in move for move in moves):
        legal = [game.format_move(move) for move in game.legal_moves(state)]
        moves.append(next((move for move in legal if "x" in move), legal[0]))
        state = game.apply(state, game.parse_move(state, moves[-1]))
    ada, bob = await connect(server, "ada"), await connect(server, "bob")
    room_id, _, _ = await start_game(ada, bob, game="loa", options={"size": 6})
    for ply, move in enumerate(moves):
        await play((ada, bob)[ply % 2], room_id, move, ply)
    await close_all([ada, bob])

    async with (
        aiohttp.ClientSession() as session,
        session.get(str(server.make_url(f"/api/games/{room_id}/replay"))) as answer,
    ):
        replay = await answer.json()
    capture = replay["moves"][-1]
    cells = [cell for row in replay["game"]["geometry"]["rows"] for cell in row]
    source, target = capture["cells"]
    side = capture["side"]
    assert sorted(capture["changes"]) == sorted(
        [[cells.index(source), None], [cells.index(target), side]]
    )
