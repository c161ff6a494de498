"""Envelopes between nodes stay readable by the release before while a cluster is
upgraded one node at a time: the fields added since are left out while empty (that
release refuses unknown fields), and every envelope reads back as it was sent."""

from __future__ import annotations

import json

from gamut_protocol import ChatEntry, Resign
from gamut_server.cluster.wire import (
    ENVELOPE,
    BlocksChanged,
    LobbyChatRequest,
    Reply,
    Request,
    ToLobby,
    ToRoom,
)
from gamut_server.core.ops import Blocking, Enter, Gone, Handle
from gamut_server.rooms import Who

ADA = Who(conn=5, name="ada")


def test_empty_later_fields_are_left_out_and_every_envelope_reads_back() -> None:
    plain = [ToRoom(room_id="r1", op=Gone(ADA)), ToLobby(op=Enter(ADA, True, False))]
    for envelope in plain:
        text = envelope.model_dump_json()
        assert "ticket" not in json.loads(text)
        assert "seeks" not in json.loads(text).get("op", {})
        assert ENVELOPE.validate_json(text) == envelope
    ticketed = ToRoom(room_id="r1", op=Handle(ADA, Resign(room_id="r1")), ticket=7)
    assert json.loads(ticketed.model_dump_json())["ticket"] == 7
    assert ENVELOPE.validate_json(ticketed.model_dump_json()) == ticketed


def test_a_player_s_blocks_read_back() -> None:
    blocking = Blocking("ada", ("pest", "Troll"), "accounts")
    for envelope in (ToLobby(op=blocking), BlocksChanged(node=2, blocking=blocking)):
        assert ENVELOPE.validate_json(envelope.model_dump_json()) == envelope


def test_a_reply_without_chat_lines_leaves_them_out_and_one_with_them_reads_back() -> None:
    plain = Reply(request_id=3, pools=({"pool": "net"},))
    assert "chat" not in json.loads(plain.model_dump_json())
    assert ENVELOPE.validate_json(plain.model_dump_json()) == plain
    lines = (ChatEntry(author="pest", text="lobby spam"),)
    answered = Reply(request_id=4, chat=lines)
    assert ENVELOPE.validate_json(answered.model_dump_json()) == answered
    asked = Request(request_id=4, sender=2, body=LobbyChatRequest(count=20))
    assert ENVELOPE.validate_json(asked.model_dump_json()) == asked
