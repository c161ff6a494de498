"""Chat lines that would read otherwise than they are written are refused, not relayed."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestServer

from tests.server.live import close_all, connect, start_game

DISGUISED = [
    "hi \u202egnp.exe",  # reads "hi exe.png"
    "free\u200bcoins",
    "admin\u200d",
    "\ufeffhello",
    "word\u2060joined",
    "tag\U000e0041ged",
    "\u2066isolated\u2069",
]


@pytest.mark.parametrize("text", DISGUISED)
async def test_invisible_and_direction_changing_characters_are_refused(
    server: TestServer, text: str
) -> None:
    ada, bob = await connect(server, "ada"), await connect(server, "bob")
    room_id, _, _ = await start_game(ada, bob)
    for where in (None, room_id):
        await ada.send({"type": "chat", "id": "c", "room_id": where, "text": text})
        refusal = await ada.expect("error", reply_to="c")
        assert refusal["code"] == "bad_message"
        assert "direction-changing" in refusal["message"]
        await ada.send({"type": "chat", "room_id": where, "text": "plain words é 😀"})
        line = await bob.expect("chat_line", room_id=where)
        assert line["text"] == "plain words é 😀"
    assert not any(m["type"] == "chat_line" and m["text"] == text for m in bob.received)
    await close_all([ada, bob])
