"""Generated garbage thrown at a live ``gamut serve``, then a game that must still play.

Hypothesis makes frames of every kind: text that is not JSON, bytes that are not UTF-8,
JSON that is no message, and messages with real types but wrong, missing or extra
fields, some aimed at a game being played. Every answer must be a valid server
message, a connection must stay open unless told with a ``fatal`` error, and the game
interrupted by all this must then finish normally.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamut_protocol import CLIENT_MESSAGE_TYPES, parse_server_message
from tests.e2e.served import serve
from tests.server.live import WHITE_WINS, Client, close_all, play, start_game

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)


def messages(room_id: str) -> st.SearchStrategy[dict[str, Any]]:
    """Message-like objects: real and made-up types, fields right, wrong or unknown."""
    return st.fixed_dictionaries(
        {"type": st.sampled_from([*CLIENT_MESSAGE_TYPES, "teleport", "", "MOVE"])},
        optional={
            "id": JSON_VALUES,
            "room_id": st.sampled_from([room_id, "nowhere"]) | JSON_VALUES,
            "name": st.sampled_from(["ada", "eve", "ai-3"]) | st.text(max_size=30),
            "move": st.sampled_from(WHITE_WINS) | st.text(max_size=10),
            "ply": st.integers(-3, 20) | JSON_VALUES,
            "text": st.text(max_size=60),
            "role": st.sampled_from(["player", "spectator", "referee"]),
            "game": st.sampled_from(["network", "connect5", "chess"]),
            "opponent": JSON_VALUES,
            "after_seq": st.integers(-1, 50),
            "protocol": st.integers(0, 3),
            "seek_id": st.text(max_size=10),
            "extra": JSON_VALUES,
        },
    )


def frames(room_id: str) -> st.SearchStrategy[str | bytes]:
    """One frame: text, bytes or a message-like object as JSON."""
    return st.one_of(
        st.text(max_size=200),
        st.binary(max_size=100),
        messages(room_id).map(json.dumps),
        JSON_VALUES.map(json.dumps),
    )


async def throw(url: str, said_hello: bool, garbage: list[str | bytes]) -> None:
    """Send ``garbage`` on a fresh connection, then check the answers and that it lives."""
    client = await Client.connect(url)
    try:
        if said_hello:
            await client.send({"type": "hello", "name": "garbage-bot"})
        for frame in garbage:
            if isinstance(frame, bytes):
                await client.ws.send_bytes(frame)
            else:
                await client.ws.send_str(frame)
        await client.send({"type": "ping", "id": "still-there"})
        await read_until_pong_or_fatal(client)
    finally:
        await client.close()


async def read_until_pong_or_fatal(client: Client) -> None:
    """Read every answer, checking each is a valid server message, up to the pong."""
    while True:
        frame = await client.ws.receive(timeout=10)
        assert frame.type == aiohttp.WSMsgType.TEXT, "closed without a fatal error"
        message = parse_server_message(frame.data)
        assert getattr(message, "code", None) != "internal_error", message
        if message.type == "pong" and message.reply_to == "still-there":
            return
        if message.type == "error" and getattr(message, "fatal", False):
            closing = await client.ws.receive(timeout=10)
            assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            return


async def begin_game(url: str) -> tuple[Client, Client, str]:
    """Two players, a game and its first three moves."""
    white, black = await Client.connect(url), await Client.connect(url)
    await white.hello("ada")
    await black.hello("bob")
    room_id, _, _ = await start_game(white, black)
    for ply, text in enumerate(WHITE_WINS[:3]):
        await play((white, black)[ply % 2], room_id, text, ply)
    return white, black, room_id


async def finish_game(white: Client, black: Client, room_id: str) -> None:
    """Play the rest of the game; it ends as it should."""
    for ply in range(3, len(WHITE_WINS)):
        await play((white, black)[ply % 2], room_id, WHITE_WINS[ply], ply)
    over = await white.expect("game_over", room_id=room_id)
    assert (over["result"]["winner"], over["result"]["reason"]) == (0, "network")


def test_garbage_leaves_the_server_and_a_game_healthy(tmp_path: Path) -> None:
    with serve(tmp_path / "gamut.sqlite3", "--ai-workers", "0", "--quiet") as served:
        loop = asyncio.new_event_loop()
        try:
            white, black, room_id = loop.run_until_complete(begin_game(served.ws_url))

            @settings(
                max_examples=80,
                deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
            )
            @given(said_hello=st.booleans(), garbage=st.lists(frames(room_id), max_size=12))
            def thrown(said_hello: bool, garbage: list[str | bytes]) -> None:
                loop.run_until_complete(throw(served.ws_url, said_hello, garbage))

            thrown()
            loop.run_until_complete(finish_game(white, black, room_id))
            loop.run_until_complete(close_all([white, black]))
        finally:
            loop.close()
    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log
    assert " ERROR " not in log
