"""Rated games between people over real sockets: who may seek and accept them, the ratings
the lobby and the seats show, the game rated at its end for players and spectators, the
profiles and the best players afterwards, and what older clients are spared."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestServer

from tests.server.live import Client, close_all, connect, play, start_game
from tests.server.people import get, sign_up

FIVE: dict[str, Any] = {"game": "connect5", "options": {"size": 5}}
"""Connect Five on 5×5: ada (side 0) fills the bottom row while bob answers above."""

BLITZ = {"kind": "per_move", "move_ms": 5000}
"""Five seconds a move: about 200 seconds a game, blitz."""

ADA_MOVES = ("a1", "b1", "c1", "d1", "e1")
BOB_MOVES = ("a2", "b2", "c2", "d2")


async def signed_in(server: TestServer, name: str, protocol: int = 5) -> Client:
    """A client signed in to the new account ``name`` with a session's secret."""
    secret = await sign_up(server, name)
    return await connect(server, name, token=secret, protocol=protocol)


async def play_out(ada: Client, bob: Client, room_id: str) -> None:
    """Ada wins with the bottom row."""
    for ply in range(len(ADA_MOVES) + len(BOB_MOVES)):
        mover, moves = (ada, ADA_MOVES) if ply % 2 == 0 else (bob, BOB_MOVES)
        await play(mover, room_id, moves[ply // 2], ply)


async def test_a_rated_game_is_rated_for_both_players_and_their_profiles(server: TestServer):
    ada = await signed_in(server, "Ada_L")
    bob = await signed_in(server, "bob")
    carol = await connect(server, "carol", protocol=5)
    try:
        room_id, mine, _ = await start_game(ada, bob, **FIVE, time_control=BLITZ, rated=True)
        assert mine["rated"] is True
        assert [seat.get("rating") for seat in mine["players"]] == [1500, 1500]
        assert all(seat.get("provisional") for seat in mine["players"])
        await carol.send({"type": "join", "room_id": room_id})
        await carol.expect("room_snapshot", room_id=room_id)
        await play_out(ada, bob, room_id)
        rated = [await client.expect("game_rated", room_id=room_id) for client in (ada, bob, carol)]
        assert rated[0] == rated[1] == rated[2]
        assert rated[0]["category"] == "connect5-5.blitz"
        assert rated[0]["category_title"] == "Connect Five 5×5, blitz"
        winner, loser = rated[0]["players"]
        assert winner["name"] == "Ada_L"
        assert winner["change"] > 0
        assert loser["name"] == "bob"
        assert loser["change"] == -winner["change"]
        assert winner["provisional"] is True

        await carol.send({"type": "join", "room_id": room_id})
        again = await carol.expect("room_snapshot", room_id=room_id)
        assert again["ratings"] == rated[0]["players"]
    finally:
        await close_all((ada, bob, carol))

    profile = (await get(server, "/api/players/ada_l")).body
    assert profile["name"] == "Ada_L"
    assert profile["record"] == {"wins": 1, "draws": 0, "losses": 0}
    [rating] = profile["ratings"]
    assert rating["category"] == "connect5-5.blitz"
    assert rating["rating"] == winner["rating"]
    assert rating["provisional"] is True
    assert (rating["games"], rating["wins"]) == (1, 1)
    assert [point["rating"] for point in rating["history"]] == [1500, winner["rating"]]
    [game] = profile["recent"]
    assert game["id"] == room_id
    assert game["rating_change"]["change"] == winner["change"]
    bobs = (await get(server, "/api/players/bob/games?limit=1")).body
    assert bobs["total"] == 1
    assert bobs["games"][0]["rating_change"]["after"] == loser["rating"]
    best = (await get(server, "/api/players")).body
    assert best == {
        "categories": [
            {"category": "connect5-5.blitz", "title": "Connect Five 5×5, blitz", "players": []}
        ]
    }, "provisional ratings are not among the best"


async def test_guests_cannot_seek_or_accept_rated_games_and_are_told_why(server: TestServer):
    ada = await signed_in(server, "ada")
    guest = await connect(server, "visitor", protocol=5)
    try:
        await guest.send({"type": "seek", **FIVE, "rated": True})
        refusal = await guest.expect("error")
        assert refusal["code"] == "not_authenticated"
        assert "sign up or sign in" in refusal["message"]
        await ada.send({"type": "seek", **FIVE, "rated": True})
        seek = (await ada.expect("seek_created"))["seek"]
        await guest.send({"type": "accept_seek", "seek_id": seek["seek_id"]})
        refusal = await guest.expect("error")
        assert refusal["code"] == "not_authenticated"
        capped = {**FIVE, "options": {"size": 5, "max_plies": 30}}
        await ada.send({"type": "seek", **capped, "rated": True})
        refusal = await ada.expect("error")
        assert "max_plies" in refusal["message"]
    finally:
        await close_all((ada, guest))


async def test_a_rating_range_keeps_out_players_rated_outside_it(server: TestServer):
    ada = await signed_in(server, "ada")
    bob = await signed_in(server, "bob")
    carol = await signed_in(server, "carol")
    try:
        room_id, _, _ = await start_game(ada, bob, **FIVE, time_control=BLITZ, rated=True)
        await play_out(ada, bob, room_id)
        rated = await ada.expect("game_rated", room_id=room_id)
        ada_rating = rated["players"][0]["rating"]
        narrow = {"below": 0, "above": 10}
        await ada.send(
            {"type": "seek", **FIVE, "time_control": BLITZ, "rated": True, "rating_range": narrow}
        )
        seek = (await ada.expect("seek_created"))["seek"]
        assert seek["author_rating"] == ada_rating
        assert seek["rating_range"] == narrow
        await bob.send({"type": "accept_seek", "seek_id": seek["seek_id"]})
        refusal = await bob.expect("error")
        assert refusal["code"] == "unavailable"
        assert f"rated {ada_rating} to {ada_rating + 10}" in refusal["message"]
        await carol.send({"type": "accept_seek", "seek_id": seek["seek_id"]})
        refusal = await carol.expect("error")
        assert "your rating there is 1500" in refusal["message"]
    finally:
        await close_all((ada, bob, carol))


async def test_clients_of_older_versions_see_neither_rating_fields_nor_game_rated(
    server: TestServer,
):
    ada = await signed_in(server, "ada")
    bob = await signed_in(server, "bob", protocol=4)
    try:
        room_id, _, theirs = await start_game(ada, bob, **FIVE, time_control=BLITZ, rated=True)
        assert all("provisional" not in seat for seat in theirs["players"])
        await play_out(ada, bob, room_id)
        await ada.expect("game_rated", room_id=room_id)
        await ada.send({"type": "ping", "id": "p"})
        await ada.expect("pong")
        await bob.send({"type": "ping", "id": "p"})
        await bob.expect("pong")
        assert not [m for m in bob.received if m["type"] == "game_rated"]
        await ada.send(
            {"type": "seek", **FIVE, "rated": True, "rating_range": {"below": 9, "above": 9}}
        )
        await ada.expect("seek_created")
        listed = await bob.expect("seek_created")
        assert "rating_range" not in listed["seek"]
        assert "author_rating" not in listed["seek"]
    finally:
        await close_all((ada, bob))
