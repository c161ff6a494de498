"""Tournaments on a live server: creating them over HTTP (and the refusals), entering and
withdrawing over the WebSocket, a round robin played through with an absent player and
a withdrawal, an arena, and the standings read back against the stored games."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from gamut_server.tournaments_live.http import TOURNAMENTS
from tests.server.live import Client, close_all, connect, live_server, server_config
from tests.server.test_ladder_server import http, register

CLOCK = {"kind": "per_move", "move_ms": 30000}


@pytest.fixture
async def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[TestServer]:
    """A live server whose director looks every 20 ms and forfeits an absent player
    after half a second."""
    monkeypatch.setenv("GAMUT_TOURNAMENT_TICK_MS", "20")
    monkeypatch.setenv("GAMUT_TOURNAMENT_GRACE_MS", "500")
    async with live_server(server_config(tmp_path)) as running:
        yield running


async def bot(server: TestServer, name: str) -> tuple[Client, str]:
    """A bot account ``name`` signed in on a WebSocket (protocol 6), and its token."""
    token = await register(server, name)
    client = await connect(server, name, token=token, kind="bot", protocol=6)
    return client, token


async def create(server: TestServer, token: str, account: str, **settings: Any) -> dict[str, Any]:
    """Create a tournament as ``account``; its summary."""
    body = {"account": account, "time_control": CLOCK, "game": "connect5", **settings}
    status, answer = await http(server, "POST", "/api/tournaments", token, **body)
    assert status == 201, answer
    return dict(answer)


async def enter(client: Client, tournament: str) -> dict[str, Any]:
    """``join_tournament``, and its answer."""
    await client.send({"type": "join_tournament", "id": "j", "tournament": tournament})
    return dict(await client.expect("tournament_status", "error", reply_to="j"))


def start_now(server: TestServer) -> None:
    """Move the director's clock past any start this test set."""
    server.app[TOURNAMENTS].wall = lambda: datetime.now(UTC) + timedelta(hours=2)


async def play_through(
    client: Client, tournament: str, absent: str = "", quit_after: int = 0
) -> list[str]:
    """Play every game ``client`` is paired for until the tournament finishes: of two
    players present, the one whose name comes later resigns; against ``absent`` it waits
    for the grace period to end the game. With ``quit_after``, withdraw after that many
    games. The rooms played.

    It follows the latest pairing, as the clients do: a ``tournament_status`` naming a
    room not played yet makes it join that room, and whichever seat's snapshot comes
    next (that room's, or one it was seated in when the room opened) is played."""
    rooms: list[str] = []
    while True:
        news = await client.expect("tournament_status", "room_snapshot", timeout=30)
        room_id = news.get("room_id")
        if news["type"] == "tournament_status":
            if news["status"] == "finished" and room_id is None:
                return rooms
            if room_id is not None and room_id not in rooms:
                await client.send({"type": "join", "room_id": room_id, "role": "player"})
            continue
        if news.get("your_side") is None or news["status"] != "running" or room_id in rooms:
            continue
        names = [player["name"] for player in news["players"]]
        other = names[1 - news["your_side"]]
        resigns = other != absent and client.name is not None and client.name > other
        await finish(client, str(room_id), resigns)
        rooms.append(str(room_id))
        if len(rooms) == quit_after:
            await client.send({"type": "leave_tournament", "id": "w", "tournament": tournament})
            left = await client.expect("tournament_status", reply_to="w")
            assert left["joined"] is False
            return rooms


async def finish(client: Client, room_id: str, resigns: bool) -> None:
    """Wait for the game in ``room_id`` to end; a player who ``resigns`` resigns once (a
    resignation that reaches a node dying before it reads it is sent again to the node
    that takes the room over, which may take several seconds)."""
    if resigns:
        await client.send({"type": "resign", "room_id": room_id})
    await client.expect("game_over", room_id=room_id, timeout=90)


async def details(server: TestServer, tournament: str) -> dict[str, Any]:
    status, body = await http(server, "GET", f"/api/tournaments/{tournament}")
    assert status == 200, body
    return dict(body)


async def wait_finished(server: TestServer, tournament: str) -> dict[str, Any]:
    for _ in range(500):
        body = await details(server, tournament)
        if body["status"] == "finished":
            return body
        await asyncio.sleep(0.02)
    raise AssertionError(f"the tournament did not finish: {body}")


async def test_creating_a_tournament_is_refused_with_a_reason(server: TestServer) -> None:
    status, body = await http(server, "POST", "/api/tournaments", game="connect5")
    assert status == 401
    assert body["error"] == "not_authenticated"
    token = await register(server, "maker")
    cases: list[tuple[dict[str, Any], str]] = [
        ({"game": "chess", "time_control": CLOCK}, "game must be one of"),
        ({"game": "connect5", "options": {"size": 99}, "time_control": CLOCK}, "size"),
        ({"game": "connect5"}, "needs a clock"),
        ({"game": "connect5", "time_control": {"kind": "untimed"}}, "not untimed"),
        ({"game": "connect5", "time_control": CLOCK, "kind": "swiss"}, "kind must be"),
        ({"game": "connect5", "time_control": CLOCK, "minutes": 0}, "minutes must be"),
        ({"game": "connect5", "time_control": CLOCK, "starts_at": "tomorrow"}, "ISO 8601"),
        ({"game": "connect5", "time_control": CLOCK, "openings": [["h8", "h8"]]}, "opening 1"),
        ({"game": "connect5", "time_control": CLOCK, "openings": "h8"}, "list of 1 to"),
    ]
    for settings, sentence in cases:
        status, body = await http(
            server, "POST", "/api/tournaments", token, account="maker", **settings
        )
        assert status == 422, (settings, body)
        assert sentence in body["message"], (settings, body)
    made = await create(server, token, "maker", kind="round_robin", starts_in=600, name="Cup")
    assert made["status"] == "upcoming"
    assert made["name"] == "Cup"
    status, listing = await http(server, "GET", "/api/tournaments")
    assert [t["id"] for t in listing["upcoming"]] == [made["id"]]


async def test_a_round_robin_with_an_absent_player_and_a_withdrawal(server: TestServer) -> None:
    (ada, token), (bob, _), (cyd, _), (dee, _) = [
        await bot(server, name) for name in ("ada", "bob", "cyd", "dee")
    ]
    clock = {"kind": "per_move", "move_ms": 2000}
    made = await create(
        server, token, "ada", kind="round_robin", starts_in=600, entry="bots", time_control=clock
    )
    tid = made["id"]
    for client in (ada, bob, cyd, dee):
        answer = await enter(client, tid)
        assert answer["type"] == "tournament_status", answer
        assert answer["joined"] is True
    guest = await connect(server, "guest", protocol=6)
    await guest.send({"type": "join_tournament", "id": "j", "tournament": tid})
    refusal = await guest.expect("error", reply_to="j")
    assert refusal["code"] == "not_authenticated"
    await dee.close()  # entered but away: it loses each game it is paired for
    start_now(server)
    played = await asyncio.gather(
        play_through(ada, tid, absent="dee"),
        play_through(bob, tid, absent="dee"),
        play_through(cyd, tid, absent="dee", quit_after=1),
    )
    final = await wait_finished(server, tid)
    games = final["games"]
    assert len(games) == 12  # four players: six rounds, two games a round
    assert {g["status"] for g in games} <= {"finished", "forfeit"}
    assert len(played[0]) >= 4
    forfeits = [g for g in games if g["status"] == "forfeit"]
    assert forfeits
    for game in forfeits:
        assert "cyd" in (game["first"], game["second"])
        assert game["game_id"] is None
        assert (game["first"], game["second"])[game["winner"]] != "cyd"
    for game in games:
        if "dee" in (game["first"], game["second"]) and game["status"] == "finished":
            assert game["winner"] is not None, game
            assert (game["first"], game["second"])[game["winner"]] != "dee", game
    assert {line["name"]: line["withdrawn"] for line in final["standings"]}["cyd"] is True
    await check_standings_against_stored_games(server, final)
    await close_all([ada, bob, cyd, guest])


async def check_standings_against_stored_games(server: TestServer, final: dict[str, Any]) -> None:
    """Each finished game's winner is the stored game's, and the standings add them up."""
    points = {line["name"]: 0.0 for line in final["standings"]}
    win, draw = (2.0, 1.0) if final["kind"] == "arena" else (1.0, 0.5)
    for game in final["games"]:
        sides = (game["first"], game["second"])
        if game["status"] == "finished":
            status, stored = await http(server, "GET", f"/api/games/{game['game_id']}")
            assert status == 200, stored
            assert stored["result"]["winner"] == game["winner"], (stored, game)
            assert [p["name"] for p in stored["players"]] == list(sides)
        if game["status"] in ("finished", "forfeit"):
            if game["winner"] is None:
                points[sides[0]] += draw
                points[sides[1]] += draw
            else:
                points[sides[game["winner"]]] += win
    assert {line["name"]: line["points"] for line in final["standings"]} == points


async def test_a_round_robin_starts_each_pair_from_its_opening_with_each_colour(
    server: TestServer,
) -> None:
    (ada, token), (bob, _) = [await bot(server, name) for name in ("ada", "bob")]
    openings = [["h8", "h9", "i8"], ["g7", "g8"]]
    made = await create(
        server, token, "ada", kind="round_robin", rounds=2, starts_in=600, openings=openings
    )
    assert made["openings"] == 2
    for client in (ada, bob):
        assert (await enter(client, made["id"]))["joined"] is True
    start_now(server)
    await asyncio.gather(play_through(ada, made["id"]), play_through(bob, made["id"]))
    final = await wait_finished(server, made["id"])
    starts = []
    for game in final["games"]:
        status, stored = await http(server, "GET", f"/api/games/{game['game_id']}")
        assert status == 200, stored
        opening = openings[(game["round"] - 1) // 2]
        assert [move["move"] for move in stored["moves"][: len(opening)]] == opening
        starts.append((game["round"], game["first"]))
    assert starts == [(1, "ada"), (2, "bob"), (3, "ada"), (4, "bob")]
    news = [m.get("message") for m in ada.received if m["type"] == "tournament_status"]
    assert news.count("ada beat bob (resign)") == 4  # bob, later by name, always resigns
    await check_standings_against_stored_games(server, final)
    await close_all([ada, bob])


async def block(client: Client, name: str) -> None:
    """``client``'s player blocks ``name``."""
    await client.send({"type": "block", "id": "b", "name": name})
    await client.expect("blocks", reply_to="b")


async def test_a_round_robin_skips_the_games_of_players_who_blocked_each_other(
    server: TestServer,
) -> None:
    (ada, token), (bob, _), (cyd, _) = [await bot(server, name) for name in ("ada", "bob", "cyd")]
    made = await create(server, token, "ada", kind="round_robin", starts_in=600, entry="bots")
    for client in (ada, bob, cyd):
        assert (await enter(client, made["id"]))["joined"] is True
    await block(bob, "ada")
    start_now(server)
    await asyncio.gather(*(play_through(client, made["id"]) for client in (ada, bob, cyd)))
    final = await wait_finished(server, made["id"])
    games = final["games"]
    assert len(games) == 6  # three players: each pair twice
    for game in games:
        blocked = {game["first"], game["second"]} == {"ada", "bob"}
        assert (game["status"], game["reason"] == "blocked") == (
            ("aborted", True) if blocked else ("finished", False)
        ), game
        assert (game["game_id"] is None) == blocked
    news = [m.get("message") for m in cyd.received if m["type"] == "tournament_status"]
    assert "ada - bob is not played: one of them blocked the other" in news
    await check_standings_against_stored_games(server, final)
    await close_all([ada, bob, cyd])


async def test_an_arena_never_pairs_players_who_blocked_each_other(server: TestServer) -> None:
    (ada, token), (bob, _), (cyd, _) = [await bot(server, name) for name in ("ada", "bob", "cyd")]
    made = await create(server, token, "ada", minutes=600, starts_in=600, entry="bots")
    for client in (ada, bob, cyd):
        assert (await enter(client, made["id"]))["joined"] is True
    await block(ada, "bob")
    start_now(server)
    players = asyncio.gather(*(play_through(client, made["id"]) for client in (ada, bob, cyd)))
    for _ in range(3000):
        if len((await details(server, made["id"]))["games"]) >= 3:
            break
        await asyncio.sleep(0.02)
    server.app[TOURNAMENTS].wall = lambda: datetime.now(UTC) + timedelta(days=2)
    await players
    final = await wait_finished(server, made["id"])
    pairs = [{game["first"], game["second"]} for game in final["games"]]
    assert len(pairs) >= 3
    assert {"ada", "bob"} not in pairs
    await check_standings_against_stored_games(server, final)
    await close_all([ada, bob, cyd])
