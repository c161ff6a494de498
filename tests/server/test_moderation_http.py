"""The moderators' HTTP API over real sockets: only a moderator's session may use it; a
ban made through it ends the player's session at once; reports reviewed and closed, and
every action in the audit log under the moderator's name."""

from __future__ import annotations

from typing import Any

import aiohttp
from aiohttp.test_utils import TestServer

from gamut_protocol import PROTOCOL_VERSION
from gamut_server import keys
from gamut_server.moderation.actions import Moderation
from tests.server.live import WHITE_WINS, close_all, connect, play, read_until_closed, start_game
from tests.server.people import sign_up

V6 = {"protocol": PROTOCOL_VERSION}


async def call(
    server: TestServer, method: str, path: str, secret: str | None, body: Any = None
) -> tuple[int, Any]:
    """One request with the session secret as a bearer: the status and the JSON."""
    headers = {} if secret is None else {"Authorization": f"Bearer {secret}"}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, server.make_url(path), json=body, headers=headers) as answer,
    ):
        return answer.status, await answer.json()


async def test_a_moderator_bans_reviews_and_closes_through_the_api(server: TestServer) -> None:
    moderator = await sign_up(server, "Mo")
    someone = await sign_up(server, "someone")
    await Moderation(server.app[keys.STORE]).grant("operator", "mo")
    assert (await call(server, "GET", "/api/mod/reports", None))[0] == 401
    assert (await call(server, "GET", "/api/mod/reports", someone))[0] == 403
    ada, pest = await connect(server, "ada", **V6), await connect(server, "pest", **V6)
    await pest.send({"type": "chat", "text": "ugly words"})
    await ada.send({"type": "report", "id": "r", "name": "pest", "reason": "ugly words"})
    report_id = (await ada.expect("report_received"))["report_id"]
    status, listed = await call(server, "GET", "/api/mod/reports", moderator)
    assert status == 200
    assert [r["id"] for r in listed["reports"]] == [report_id]
    assert listed["reports"][0]["context"]["chat"][-1]["text"] == "ugly words"
    ban = {"name": "pest", "reason": "ugly words", "for": "1d"}
    status, done = await call(server, "POST", "/api/mod/ban", moderator, ban)
    assert status == 200, done
    assert done["message"].startswith("pest is banned until")
    ending = await read_until_closed(pest)
    assert ending[-1]["code"] == "banned"
    close = {"reason": "banned for a day"}
    path = f"/api/mod/reports/{report_id}/close"
    assert (await call(server, "POST", path, moderator, close))[0] == 200
    assert (await call(server, "POST", path, moderator, close))[0] == 400
    status, page = await call(server, "GET", "/api/mod/players/PEST", moderator)
    assert page["sanctions"][0]["kind"] == "ban"
    assert page["sanctions"][0]["by"] == "Mo"
    assert page["reports"][0]["resolution"] == "banned for a day"
    assert not page["online"]
    status, log = await call(server, "GET", "/api/mod/log", moderator)
    actions = [(e["by"], e["action"], e["subject"]) for e in log["entries"]]
    assert actions[:3] == [
        ("Mo", "close_report", f"report {report_id}"),
        ("Mo", "ban", "pest"),
        ("operator", "grant", "Mo"),
    ]
    status, refused = await call(server, "POST", "/api/mod/mute", moderator, {"name": "x"})
    assert status == 400
    assert "reason" in refused["message"]
    await close_all([ada])


async def test_a_moderator_calls_a_game_off(server: TestServer) -> None:
    moderator = await sign_up(server, "Mo")
    await Moderation(server.app[keys.STORE]).grant("operator", "mo")
    ada, bob = await connect(server, "ada", **V6), await connect(server, "bob", **V6)
    room_id, _, _ = await start_game(ada, bob)
    for ply, move in enumerate(WHITE_WINS[:4]):
        await play((ada, bob)[ply % 2], room_id, move, ply)
    body = {"room_id": room_id, "reason": "a quarrel"}
    status, done = await call(server, "POST", "/api/mod/abort", moderator, body)
    assert status == 200, done
    for player in (ada, bob):
        over = await player.expect("game_over", room_id=room_id)
        assert over["result"]["reason"] == "aborted"
    status, _ = await call(server, "POST", "/api/mod/abort", moderator, body)
    assert status == 200  # a game already over: nothing more happens
    status, _ = await call(server, "POST", "/api/mod/abort", moderator, {**body, "room_id": "nope"})
    assert status == 400
    _, log = await call(server, "GET", "/api/mod/log", moderator)
    assert (log["entries"][0]["action"], log["entries"][0]["subject"]) == (
        "abort_room",
        f"room {room_id}",
    )
    await close_all([ada, bob])


async def test_a_removed_line_leaves_every_member_s_chat(server: TestServer) -> None:
    moderator = await sign_up(server, "Mo")
    await Moderation(server.app[keys.STORE]).grant("operator", "mo")
    ada, pest = await connect(server, "ada", **V6), await connect(server, "pest", **V6)
    watcher = await connect(server, "watcher", **V6)
    old = await connect(server, "old", protocol=5)
    room_id, _, _ = await start_game(pest, ada)
    for spectator in (watcher, old):
        await spectator.send({"type": "join", "room_id": room_id, "role": "spectator"})
        await spectator.expect("room_snapshot", room_id=room_id)
    await pest.send({"type": "chat", "room_id": room_id, "text": "ugly words"})
    seq = (await ada.expect("chat_line", room_id=room_id))["seq"]
    await watcher.expect("chat_line", room_id=room_id, seq=seq)
    body = {"room_id": room_id, "seq": seq, "reason": "insults"}
    status, done = await call(server, "POST", "/api/mod/remove-line", moderator, body)
    assert status == 200, done
    for member in (ada, pest, watcher):
        removed = await member.expect("chat_removed", room_id=room_id)
        assert (removed["line_seq"], removed["author"]) == (seq, "pest")
    late = await connect(server, "late", **V6)
    await late.send({"type": "join", "room_id": room_id, "role": "spectator"})
    snapshot = await late.expect("room_snapshot", room_id=room_id)
    assert all(line["text"] != "ugly words" for line in snapshot["chat"])
    await watcher.send({"type": "resume", "room_id": room_id, "after_seq": seq - 1})
    replayed = await watcher.expect("chat_line", room_id=room_id, seq=seq)
    assert replayed["text"] == "(removed by a moderator)"
    stored = await server.app[keys.STORE].chat_lines(room_id)
    assert [line.text for line in stored] == ["(removed by a moderator)"]
    _, page = await call(server, "GET", "/api/mod/players/pest", moderator)
    assert [(c["room_id"], c["seq"], c["text"]) for c in page["chat"]] == [
        (room_id, seq, "(removed by a moderator)")
    ]
    await pest.send({"type": "chat", "text": "lobby spam"})
    await ada.expect("chat_line", text="lobby spam")
    lobby = {"author": "pest", "text": "lobby spam", "reason": "spam"}
    assert (await call(server, "POST", "/api/mod/remove-line", moderator, lobby))[0] == 200
    assert (await ada.expect("chat_removed"))["text"] == "lobby spam"
    await old.send({"type": "ping", "id": "p"})
    await old.expect("pong", reply_to="p")
    assert not any(m["type"] == "chat_removed" for m in old.received)
    _, log = await call(server, "GET", "/api/mod/log", moderator)
    assert [e["action"] for e in log["entries"][:2]] == ["remove_line", "remove_line"]
    await close_all([ada, pest, watcher, old, late])


async def test_a_moderator_takes_a_guest_off_a_name(server: TestServer) -> None:
    moderator = await sign_up(server, "Mo")
    await Moderation(server.app[keys.STORE]).grant("operator", "mo")
    pest, ada = await connect(server, "pest", **V6), await connect(server, "ada", **V6)
    body = {"name": "Pest", "reason": "an insulting name", "for": "1h"}
    status, done = await call(server, "POST", "/api/mod/take-name", moderator, body)
    assert status == 200, done
    assert done["message"].startswith("Pest is kept from guests until")
    ending = [m for m in await read_until_closed(pest) if m["type"] == "error"][-1]
    assert (ending["code"], ending["fatal"]) == ("name_taken", True)
    assert ending["message"].startswith("a moderator took you off the name 'pest' until")
    assert "an insulting name; choose another name" in ending["message"]
    for token in (pest.token, None):
        again = await connect(server)
        await again.send({"type": "hello", "id": "h", "name": "PEST", "token": token, **V6})
        refusal = await again.expect("error", reply_to="h")
        assert refusal["code"] == "name_taken"
        assert refusal["message"].startswith("guests may not use the name 'Pest' until")
        await again.close()
    await ada.send({"type": "ping", "id": "p"})
    await ada.expect("pong", reply_to="p")
    status, refused = await call(server, "POST", "/api/mod/take-name", moderator, {
        "name": "mo", "reason": "a test"
    })  # fmt: skip
    assert status == 400
    assert refused["message"] == "'Mo' is an account, not a guest's name: ban the account instead"
    _, page = await call(server, "GET", "/api/mod/players/pest", moderator)
    assert [(s["kind"], s["by"]) for s in page["sanctions"]] == [("name", "Mo")]
    lift = {"name": "pest", "reason": "renamed"}
    status, done = await call(server, "POST", "/api/mod/release-name", moderator, lift)
    assert (status, done["message"]) == (200, "the hold on the name of pest is lifted")
    back = await connect(server, "pest", **V6)
    _, log = await call(server, "GET", "/api/mod/log", moderator)
    actions = [(e["action"], e["subject"], e["until"] is None) for e in log["entries"][:2]]
    assert actions == [("release_name", "pest", True), ("take_name", "Pest", False)]
    await close_all([ada, back])
