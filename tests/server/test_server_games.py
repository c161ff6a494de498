"""Whole games over real sockets: two players, spectators, chat, refusals, drops and resumes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from gamut_engine import load_game
from gamut_server import keys
from tests.server.live import (
    WHITE_WINS,
    Client,
    Message,
    close_all,
    connect,
    live_server,
    play,
    read_until_closed,
    server_config,
    start_game,
)

LONG_MOVES = {"kind": "per_move", "move_ms": 600_000}
"""A clock that never runs out in these tests, so a dropped player has the ordinary grace."""


@pytest.fixture
async def server(tmp_path: Path, server_db: str) -> AsyncIterator[TestServer]:
    async with live_server(server_config(tmp_path, db=server_db)) as running:
        yield running


def test_the_scripted_game_is_a_white_network_win() -> None:
    game = load_game("network")
    state = game.initial_state()
    for text in WHITE_WINS:
        state = game.apply(state, game.parse_move(state, text))
    outcome = game.outcome(state)
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (0, "network")


async def play_out(
    players: tuple[Client, Client], room_id: str, moves: tuple[str, ...], first_ply: int = 0
) -> list[dict[str, object]]:
    """Play ``moves`` alternately from ``first_ply``; every ``move_made`` the opponent saw."""
    seen = []
    for ply, text in enumerate(moves, start=first_ply):
        mover, other = players[ply % 2], players[1 - ply % 2]
        await play(mover, room_id, text, ply)
        seen.append(await other.expect("move_made", room_id=room_id, ply=ply))
    return seen


async def test_two_players_play_network_to_a_win_watched_by_a_spectator(
    server: TestServer,
) -> None:
    white, black, watcher = [await connect(server, name) for name in ("ada", "bob", "cyd")]
    room_id, white_view, black_view = await start_game(white, black)
    assert (white_view["your_side"], black_view["your_side"]) == (0, 1)
    assert white_view["game"]["name"] == "network"
    assert white_view["position"]["ply"] == 0
    await play_out((white, black), room_id, WHITE_WINS[:4])
    await watcher.send({"type": "join", "id": "w", "room_id": room_id, "role": "spectator"})
    snapshot = await watcher.expect("room_snapshot", room_id=room_id)
    assert "your_side" not in snapshot
    assert [record["move"] for record in snapshot["moves"]] == list(WHITE_WINS[:4])
    await black.send({"type": "chat", "room_id": room_id, "text": "good luck"})
    line = await watcher.expect("chat_line", room_id=room_id)
    assert (line["author"], line["text"]) == ("bob", "good luck")
    rest = await play_out((white, black), room_id, WHITE_WINS[4:], first_ply=4)
    assert rest[-1]["move"] == WHITE_WINS[-1]
    watched = [await watcher.expect("move_made", ply=ply) for ply in range(4, len(WHITE_WINS))]
    assert [event["move"] for event in watched] == list(WHITE_WINS[4:])
    seqs = [snapshot["seq"], line["seq"], *(event["seq"] for event in watched)]
    assert seqs == sorted(seqs)
    assert len(set(seqs)) == len(seqs)
    for client in (white, black, watcher):
        over = await client.expect("game_over", room_id=room_id)
        assert over["result"]["winner"] == 0
        assert over["result"]["reason"] == "network"
        assert over["result"]["line"][0] == "01"
    async with aiohttp.ClientSession() as http:
        async with http.get(server.make_url("/api/games/finished")) as response:
            page = await response.json()
        assert [game["id"] for game in page["games"]] == [room_id]
        async with http.get(server.make_url(f"/api/games/{room_id}")) as response:
            record = await response.json()
        assert [move["move"] for move in record["moves"]] == list(WHITE_WINS)
        assert record["result"]["reason"] == "network"
        async with http.get(server.make_url(f"/api/games/{room_id}/export")) as response:
            text = await response.text()
        assert '[Result "1-0"]' in text
    await close_all([white, black, watcher])


async def test_moves_are_refused_in_order_with_reasons(server: TestServer) -> None:
    white, black = await connect(server, "ada"), await connect(server, "bob")
    room_id, _, _ = await start_game(white, black)
    await black.send({"type": "move", "id": 1, "room_id": room_id, "move": "10", "ply": 0})
    assert (await black.expect("error"))["code"] == "not_your_turn"
    await white.send({"type": "move", "id": 2, "room_id": room_id, "move": "00", "ply": 0})
    corner = await white.expect("error")
    assert (corner["code"], corner["reason"], corner["reply_to"]) == ("illegal_move", "corner", 2)
    await white.send({"type": "move", "id": 3, "room_id": room_id, "move": "hello", "ply": 0})
    assert (await white.expect("error"))["code"] == "invalid_move"
    await play(white, room_id, "01", 0)
    await black.expect("move_made", ply=0)
    await white.send({"type": "move", "id": 4, "room_id": room_id, "move": "02", "ply": 1})
    assert (await white.expect("error"))["code"] == "not_your_turn"
    await black.send({"type": "move", "id": 5, "room_id": room_id, "move": "10", "ply": 0})
    assert (await black.expect("error"))["code"] == "stale_ply"
    await black.send({"type": "resign", "id": 6, "room_id": room_id})
    over = await white.expect("game_over")
    assert (over["result"]["winner"], over["result"]["reason"]) == (0, "resign")
    await white.send({"type": "move", "id": 7, "room_id": room_id, "move": "02", "ply": 1})
    assert (await white.expect("error"))["code"] == "game_over"
    await white.send({"type": "ping", "id": 8})
    assert (await white.expect("pong"))["reply_to"] == 8
    await close_all([white, black])


async def test_a_dropped_player_resumes_and_misses_nothing(server: TestServer) -> None:
    white, black = await connect(server, "ada"), await connect(server, "bob")
    room_id, _, _ = await start_game(white, black, time_control=LONG_MOVES)
    await play_out((white, black), room_id, WHITE_WINS[:2])
    last_seen = max(event.get("seq", 0) for event in black.received)
    token = black.token
    await black.close()
    gone = await white.expect("player_disconnected", room_id=room_id)
    assert (gone["side"], gone["grace_ms"]) == (1, 60_000)
    await play(white, room_id, WHITE_WINS[2], 2)
    black = await connect(server)
    welcome = await black.hello("bob", token=token)
    assert welcome["rooms"] == [room_id]
    await black.send({"type": "resume", "id": "r", "room_id": room_id, "after_seq": last_seen})
    replayed = [await black.next()]
    while replayed[-1]["type"] != "player_connected":
        replayed.append(await black.next())
    events = [event for event in replayed if event.get("room_id") == room_id]
    kinds = [event["type"] for event in events]
    assert kinds == ["player_disconnected", "move_made", "player_connected"]
    assert [event["seq"] for event in events] == list(range(last_seen + 1, last_seen + 4))
    assert events[1]["move"] == WHITE_WINS[2]
    back = await white.expect("player_connected", room_id=room_id)
    assert back["side"] == 1
    await black.close()
    again = await white.expect("player_disconnected", room_id=room_id)
    assert again["side"] == 1
    black = await connect(server)
    await black.hello("bob", token=token)
    await black.send({"type": "resume", "room_id": room_id, "after_seq": again["seq"]})
    await white.expect("player_connected", room_id=room_id, seq=again["seq"] + 1)
    await play_out((white, black), room_id, WHITE_WINS[3:], first_ply=3)
    assert (await black.expect("game_over"))["result"]["winner"] == 0
    await close_all([white, black])


async def seek_when_allowed(seeker: Client) -> Message:
    """Seek, asking again while the address's seek allowance refills, as a person would."""
    for attempt in range(100):
        await seeker.send({"type": "seek", "id": attempt, "game": "network"})
        answer = await seeker.expect("seek_created", "error", reply_to=attempt)
        if answer["type"] == "seek_created":
            seek: Message = answer["seek"]
            return seek
        assert answer["code"] == "rate_limited", answer
        await asyncio.sleep(0.2)
    raise AssertionError("the address's seek allowance never refilled")


async def test_a_thousand_seeks_from_one_connection_are_capped(server: TestServer) -> None:
    greedy, other = await connect(server, "greedy"), await connect(server, "other")
    for number in range(1000):
        await greedy.send({"type": "seek", "id": number, "game": "network"})
    answers = await read_until_closed(greedy)
    created = [answer for answer in answers if answer["type"] == "seek_created"]
    refusals = [answer for answer in answers if answer["type"] == "error"]
    assert 1 <= len(created) <= 5
    assert {answer["code"] for answer in refusals} <= {"too_many_seeks", "rate_limited"}
    assert refusals[-1]["fatal"] is True
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:  # its address is cut off
        await connect(server, "greedy")
    assert refused.value.status == 429
    server.app[keys.HUB].addresses.forgive("127.0.0.1")  # rather than wait 5 s
    seeker = await connect(server, "greedy")
    seek = await seek_when_allowed(seeker)
    await other.send({"type": "accept_seek", "id": 1, "seek_id": seek["seek_id"]})
    snapshot = await other.expect("room_snapshot")
    await seeker.expect("room_snapshot", room_id=snapshot["room_id"])
    await close_all([greedy, seeker, other])


async def test_deadlines_fire_a_flag_and_a_grace_period(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path, grace_ms=300)) as server:
        white, black = await connect(server, "ada"), await connect(server, "bob")
        per_move = {"kind": "per_move", "move_ms": 400}
        room_id, _, _ = await start_game(white, black, time_control=per_move)
        await play(white, room_id, WHITE_WINS[0], 0)
        flagged = await white.expect("game_over", room_id=room_id)
        assert (flagged["result"]["winner"], flagged["result"]["reason"]) == (0, "timeout")

        room_id, _, _ = await start_game(white, black, time_control=LONG_MOVES)
        await play(white, room_id, WHITE_WINS[0], 0)
        await black.close()
        gone = await white.expect("player_disconnected", room_id=room_id)
        assert gone["grace_ms"] == 300
        abandoned = await white.expect("game_over", room_id=room_id)
        assert (abandoned["result"]["winner"], abandoned["result"]["reason"]) == (0, "abandoned")
        await white.close()


async def test_a_rematch_opens_a_new_room_with_the_sides_exchanged(server: TestServer) -> None:
    white, black = await connect(server, "ada"), await connect(server, "bob")
    room_id, _, _ = await start_game(white, black)
    await play(white, room_id, WHITE_WINS[0], 0)
    await black.send({"type": "resign", "room_id": room_id})
    await white.expect("game_over", room_id=room_id)
    await white.send({"type": "rematch", "room_id": room_id})
    assert (await black.expect("rematch_offered", room_id=room_id))["side"] == 0
    await black.send({"type": "rematch", "room_id": room_id})
    started = await white.expect("rematch_started", room_id=room_id)
    new_room = started["new_room_id"]
    mine = await white.expect("room_snapshot", room_id=new_room)
    theirs = await black.expect("room_snapshot", room_id=new_room)
    assert (mine["your_side"], theirs["your_side"]) == (1, 0)
    await play(black, new_room, WHITE_WINS[0], 0)
    assert (await white.expect("move_made", room_id=new_room))["move"] == WHITE_WINS[0]
    await close_all([white, black])
