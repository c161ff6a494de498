"""A game from another package plays everywhere: Hex on a rhombus, registered only through
the ``gamut.games`` entry point of the test package in ``tests/plugins``.

Nothing in Gamut names it: the server lists and hosts it, SDK bots play it to the end, a
version 2 client is sent its board in the older ``square`` form, and ``gamut local`` and
``gamut match`` play it with the AI.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, TypeVar

import pytest
import websockets

from gamut_client.bots import Plan, PlayerBot, run_bot, seek_terms
from gamut_client.connection import Connection, connect
from gamut_protocol import (
    AcceptSeek,
    BoardGeometry,
    GameList,
    ListGames,
    RoomSnapshot,
    Seek,
    SeekCreated,
)
from tests.e2e.live import gamut_server
from tests.e2e.test_bot_games import assert_engine_agrees, only_game

pytestmark = pytest.mark.timeout(120)

T = TypeVar("T")

WAIT = 10.0
"""Seconds to wait for one message (never reached when all is well)."""


async def test_the_game_is_listed_and_created_with_its_rhombus_board(tmp_path: Path) -> None:
    async with (
        gamut_server(tmp_path) as url,
        connect(url, "ada") as ada,
        connect(url, "bob") as bob,
    ):
        games = await ada.request(ListGames(), timeout=WAIT)
        assert isinstance(games, GameList)
        hex_info = next(info for info in games.games if info.name == "hex")
        assert hex_info.title == "Hex 5×5"
        assert [(o.name, o.default, o.minimum, o.maximum) for o in hex_info.options] == [
            ("size", 5, 2, 9),
            ("max_plies", 400, 10, 2000),
        ]
        await ada.send(Seek(game="hex", options={"size": 4}, side=0))
        created = await _next(bob, SeekCreated)
        await bob.send(AcceptSeek(seek_id=created.seek.seek_id))
        snapshot = await _next(ada, RoomSnapshot)
        geometry = snapshot.game.geometry
        assert isinstance(geometry, BoardGeometry)
        assert geometry.shape == "hex_pointy"
        assert geometry.row_names == ("1", "2", "3", "4")
        assert geometry.column_names == ("a", "b", "c", "d")
        assert geometry.columns[0] == ("a1", "a2", "a3", "a4")
        # Each row starts half a cell further right: the board is a rhombus.
        assert [geometry.places[row[0]].x for row in geometry.rows] == [0.0, 0.5, 1.0, 1.5]
        assert snapshot.game.notation.examples[:2] == ("a1", "b1")
        old = await _older_client_watches(url, snapshot.room_id)
        assert old["kind"] == "square"
        assert (old["width"], old["height"]) == (4, 4)
        assert old["rows"] == [list(row) for row in geometry.rows]


async def _next(connection: Connection, kind: type[T]) -> T:
    """The next message of type ``kind`` the connection receives."""
    while True:
        item = await asyncio.wait_for(connection.receive(), WAIT)
        if isinstance(item, kind):
            return item


async def _older_client_watches(url: str, room_id: str, version: int = 2) -> dict[str, object]:
    """The geometry a client speaking an older protocol version is sent when it watches a
    room."""
    game = await _older_client_sees(url, room_id, version)
    geometry: dict[str, object] = game["geometry"]
    return geometry


async def _older_client_sees(url: str, room_id: str, version: int) -> dict[str, Any]:
    """The game descriptor a client speaking ``version`` is sent when it watches a room."""
    async with websockets.connect(url) as socket:
        await socket.send(json.dumps({"type": "hello", "protocol": version, "name": "old"}))
        await socket.send(json.dumps({"type": "join", "room_id": room_id, "role": "spectator"}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), WAIT))
            if message["type"] == "room_snapshot":
                game: dict[str, Any] = message["game"]
                return game


async def test_a_game_declares_its_colours_and_pick_lines_from_version_6(tmp_path: Path) -> None:
    async with (
        gamut_server(tmp_path) as url,
        connect(url, "ada") as ada,
        connect(url, "bob") as bob,
    ):
        await ada.send(Seek(game="connect4", options={"width": 5, "height": 4}, side=0))
        created = await _next(bob, SeekCreated)
        await bob.send(AcceptSeek(seek_id=created.seek.seek_id))
        snapshot = await _next(ada, RoomSnapshot)
        game = snapshot.game
        assert game.colours == ("#c62828", "#f2c400")
        assert isinstance(game.geometry, BoardGeometry)
        assert game.geometry.pick_lines is not None
        assert game.geometry.pick_lines[0] == ("a4", "a3", "a2", "a1")
        assert len(game.geometry.pick_lines) == 5
        older = await _older_client_sees(url, snapshot.room_id, 5)
        assert older["title"] == "Connect Four 5×4"
        assert "colours" not in older
        assert older["geometry"]["kind"] == "board"
        assert "pick_lines" not in older["geometry"]
        oldest = await _older_client_sees(url, snapshot.room_id, 2)
        assert "colours" not in oldest
        assert oldest["geometry"]["kind"] == "square"


async def test_two_sdk_bots_play_it_to_the_end(tmp_path: Path) -> None:
    async with gamut_server(tmp_path) as url:
        terms = seek_terms("hex", {"size": 4}, time_control="untimed")
        seeker = run_bot(PlayerBot("random:1"), url, "seeker", plan=Plan(seek=terms, games=1))
        taker = run_bot(
            PlayerBot("random:2"),
            url,
            "taker",
            plan=Plan(accept_open=True, only_game="hex", games=1),
        )
        ran = await asyncio.wait_for(asyncio.gather(seeker, taker), 100)
    first, second = (only_game(summary) for summary in ran)
    assert first.moves == second.moves
    assert first.result is not None
    assert first.result.reason == "joined"
    assert (first.result.message or "").endswith("joins their two sides")
    assert_engine_agrees(first)


def gamut(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the ``gamut`` command as a person would (the test package on its path)."""
    command = [sys.executable, "-m", "gamut_client.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_gamut_local_plays_it_with_the_ai() -> None:
    result = gamut("local", "hex", "-o", "size=3", "--humans", "0", "--computer", "ai:3")
    assert result.returncode == 0, result.stderr
    assert "    a b c\n 1 . . .\n  2 . . .\n   3 . . ." in result.stdout
    *_, verdict, sentence = result.stdout.rstrip().splitlines()
    winner = verdict.split()[0]
    assert verdict.startswith(("Red wins! ", "Blue wins! "))
    assert sentence == f"{winner} joins their two sides."


def test_gamut_match_plays_it_with_the_ai() -> None:
    # an exact depth and a fixed seed: the same games whatever the machine's load
    args = ("match", "hex", "ai:depth=4", "random", "-n", "4", "--size", "4", "--seed", "7")
    result = gamut(*args)
    assert result.returncode == 0, result.stderr
    assert "Hex 4×4: A = ai:depth=4, B = random; 4 games" in result.stdout
    assert "A: 4 wins, 0 draws, 0 losses" in result.stdout
    assert "Endings: joined 4" in result.stdout
    # Not on a terminal, the progress is a line a game, ending in the game's own words.
    assert "game 1/4: A (Red) wins: Red joins their two sides, in " in result.stderr
    assert "game 2/4: A (Blue) wins: Blue joins their two sides, in " in result.stderr


def test_a_bad_option_is_refused_in_words() -> None:
    result = gamut("perft", "hex", "-o", "size=12", "--depth", "1")
    assert result.returncode != 0
    assert "option 'size' is at most 9, not 12" in result.stderr
