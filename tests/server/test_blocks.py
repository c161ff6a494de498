"""A player's blocks, challenge setting and reports over real sockets: a blocked player's
challenges refused and chat lines not delivered to the blocker, blocks kept with an
account, reports kept with the context the server saw."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestServer

from gamut_protocol import PROTOCOL_VERSION
from gamut_server import keys
from gamut_server.core.delivery import HIDDEN_LINE
from tests.server.live import Client, close_all, connect, start_game
from tests.server.people import sign_up

V6 = {"protocol": PROTOCOL_VERSION}


def challenge(name: str, seek_id: str = "c") -> dict[str, Any]:
    """A challenge to ``name`` to a game of Network."""
    opponent = {"kind": "player", "name": name}
    return {"type": "seek", "id": seek_id, "game": "network", "opponent": opponent}


async def answer_to(client: Client, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` (with an ``id``) and return what answers it."""
    await client.send(message)
    return await client.expect("blocks", "error", "seek_created", "report_received",
                               reply_to=message["id"])  # fmt: skip


async def test_a_blocked_player_cannot_challenge_and_is_not_heard(server: TestServer) -> None:
    ada, pest, bob = [await connect(server, name, **V6) for name in ("ada", "pest", "bob")]
    assert (await ada.expect("blocks"))["names"] == []
    blocks = await answer_to(ada, {"type": "block", "id": "b", "name": "PEST"})
    assert blocks["names"] == ["PEST"]
    refused = await answer_to(pest, challenge("ada"))
    assert refused["code"] == "refused"
    assert refused["message"] == "ada does not accept challenges from you"
    await pest.send({"type": "chat", "text": "you are terrible"})
    await bob.expect("chat_line", text="you are terrible")
    await bob.send({"type": "chat", "text": "be nice"})
    await ada.expect("chat_line", text="be nice")
    assert not any(m.get("text") == "you are terrible" for m in ada.received + ada.drain_unread())
    room_id, _, _ = await start_game(pest, bob)
    await ada.send({"type": "join", "id": "j", "room_id": room_id, "role": "spectator"})
    await ada.expect("room_snapshot", room_id=room_id)
    await pest.send({"type": "chat", "room_id": room_id, "text": "spectators are losers"})
    line = await ada.expect("chat_line", room_id=room_id)
    assert line["text"] == HIDDEN_LINE
    assert (await bob.expect("chat_line", room_id=room_id))["text"] == "spectators are losers"
    await answer_to(ada, {"type": "unblock", "id": "u", "name": "pest"})
    assert (await answer_to(pest, challenge("ada", "c2")))["type"] == "seek_created"
    await close_all([ada, pest, bob])


async def test_a_blocked_player_s_open_seeks_are_not_seen_nor_taken(server: TestServer) -> None:
    ada, pest = await connect(server, "ada", **V6), await connect(server, "pest", **V6)
    await answer_to(ada, {"type": "block", "id": "b", "name": "pest"})
    created = await answer_to(pest, {"type": "seek", "id": "s", "game": "network"})
    seek_id = created["seek"]["seek_id"]
    await ada.send({"type": "accept_seek", "id": "a", "seek_id": seek_id})
    assert (await ada.expect("error", reply_to="a"))["code"] == "unknown_seek"
    assert not any(m["type"] == "seek_created" for m in ada.received)
    await close_all([ada, pest])


async def test_challenges_only_from_accounts_or_from_nobody(server: TestServer) -> None:
    secret = await sign_up(server, "Carol")
    ada = await connect(server, "ada", **V6)
    guest = await connect(server, "guest-7", **V6)
    carol = await connect(server, "Carol", token=secret, **V6)
    setting = {"type": "accept_challenges", "id": "s", "challenges_from": "accounts"}
    assert (await answer_to(ada, setting))["challenges_from"] == "accounts"
    refused = await answer_to(guest, challenge("ada"))
    assert refused["code"] == "refused"
    assert "only from players signed in to an account" in refused["message"]
    assert (await answer_to(carol, challenge("ada")))["type"] == "seek_created"
    await answer_to(ada, {**setting, "challenges_from": "nobody"})
    assert "accepts no challenges" in (await answer_to(carol, challenge("ada", "c2")))["message"]
    old = await connect(server, "old", protocol=5)
    assert (await answer_to(old, challenge("ada")))["code"] == "unknown_player"
    await close_all([ada, guest, carol, old])


async def test_an_account_s_blocks_are_kept(server: TestServer) -> None:
    secret = await sign_up(server, "Dora")
    dora = await connect(server, "Dora", token=secret, **V6)
    await dora.expect("blocks")
    await answer_to(dora, {"type": "block", "id": "b", "name": "pest"})
    await dora.close()
    again = await connect(server, "Dora", token=secret, **V6)
    assert (await again.expect("blocks"))["names"] == ["pest"]
    pest = await connect(server, "pest", **V6)
    assert (await answer_to(pest, challenge("Dora")))["code"] == "refused"
    await close_all([again, pest])


async def test_a_report_keeps_what_the_server_saw(server: TestServer) -> None:
    ada, pest = await connect(server, "ada", **V6), await connect(server, "pest", **V6)
    room_id, _, _ = await start_game(pest, ada)
    await pest.send({"type": "chat", "room_id": room_id, "text": "you will lose, idiot"})
    await ada.expect("chat_line", room_id=room_id)
    report = {
        "type": "report", "id": "r", "name": "pest", "reason": "insults", "room_id": room_id,
    }  # fmt: skip
    received = await answer_to(ada, report)
    assert received["report_id"] >= 1
    await pest.send({"type": "chat", "text": "lobby spam"})
    await ada.expect("chat_line", text="lobby spam")
    lobby_report = await answer_to(ada, {"type": "report", "id": "r2", "name": "pest",
                                         "reason": "spam"})  # fmt: skip
    reports = await server.app[keys.STORE].reports()
    assert [r.id for r in reports] == [received["report_id"], lobby_report["report_id"]]
    in_room, in_lobby = reports
    assert (in_room.reporter, in_room.subject, in_room.reason) == ("ada", "pest", "insults")
    assert in_room.context["room_id"] == room_id
    assert in_room.context["players"] == ["pest", "ada"]
    assert in_room.context["chat"][-1]["text"] == "you will lose, idiot"
    assert in_lobby.context["where"] == "lobby"
    assert in_lobby.context["chat"][-1] == {"author": "pest", "text": "lobby spam"}
    await close_all([ada, pest])
