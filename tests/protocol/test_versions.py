"""Protocol versions: what a hello that names none means, and what version 2 adds."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from gamut_protocol import (
    MIN_PROTOCOL_VERSION,
    PRESENCE_VERSION,
    PROTOCOL_VERSION,
    Hello,
    LobbySnapshot,
    OnlinePlayer,
    Presence,
    dump,
    is_supported_version,
    parse_client_message,
    parse_server_message,
)
from gamut_protocol.common import MAX_LIST_LENGTH


def test_a_hello_that_names_no_version_speaks_version_1() -> None:
    hello = parse_client_message('{"type": "hello", "name": "ada"}')
    assert isinstance(hello, Hello)
    assert hello.protocol == 1
    assert is_supported_version(MIN_PROTOCOL_VERSION)


def test_presence_belongs_to_a_supported_version() -> None:
    assert MIN_PROTOCOL_VERSION < PRESENCE_VERSION <= PROTOCOL_VERSION


def test_a_version_1_snapshot_reads_and_writes_as_before() -> None:
    text = '{"type": "lobby_snapshot", "seeks": [], "rooms": [], "online": 2, "chat": []}'
    snapshot = parse_server_message(text)
    assert isinstance(snapshot, LobbySnapshot)
    assert snapshot.present is None
    assert json.loads(dump(snapshot)) == json.loads(text)


def test_presence_round_trips_with_its_defaults_written_out() -> None:
    message = Presence(player=OnlinePlayer(name="ada", kind="human"), online=1)
    assert json.loads(dump(message)) == {
        "type": "presence",
        "player": {"name": "ada", "kind": "human", "playing": []},
        "left": False,
        "online": 1,
    }
    assert parse_server_message(dump(message)) == message


@pytest.mark.parametrize(
    "player",
    [
        {"name": "ada", "kind": "ai", "playing": []},
        {"name": "-ada", "kind": "human", "playing": []},
        {"name": "ada", "kind": "human", "playing": ["r 1"]},
        {"name": "ada", "kind": "human", "playing": ["r1"] * (MAX_LIST_LENGTH + 1)},
    ],
)
def test_online_players_are_checked_like_every_field(player: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        OnlinePlayer.model_validate(player, strict=True)
