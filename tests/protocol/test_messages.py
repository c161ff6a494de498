"""Every message type round-trips through JSON, and the unions know each type exactly once."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel, ValidationError

from gamut_protocol import (
    CLIENT_ADAPTER,
    CLIENT_MESSAGE_TYPES,
    ROOM_EVENT_TYPES,
    SERVER_ADAPTER,
    SERVER_MESSAGE_TYPES,
    ChatLine,
    ClientMessageBase,
    Hello,
    Move,
    RoomEvent,
    ServerMessageBase,
    dump,
    parse_client_message,
    parse_server_message,
)
from tests.protocol.samples import CLIENT_SAMPLES, SERVER_SAMPLES


def sample_id(message: BaseModel) -> str:
    return type(message).__name__


def test_samples_cover_every_client_type() -> None:
    assert {type(m).model_fields["type"].default for m in CLIENT_SAMPLES} == set(
        CLIENT_MESSAGE_TYPES
    )


def test_samples_cover_every_server_type() -> None:
    assert {type(m).model_fields["type"].default for m in SERVER_SAMPLES} == set(
        SERVER_MESSAGE_TYPES
    )


def test_type_tags_are_unique_and_match_their_classes() -> None:
    for types in (CLIENT_MESSAGE_TYPES, SERVER_MESSAGE_TYPES):
        for tag, cls in types.items():
            assert cls.model_fields["type"].default == tag
        assert len(set(types.values())) == len(types)
    assert set(CLIENT_MESSAGE_TYPES).isdisjoint(SERVER_MESSAGE_TYPES)


@pytest.mark.parametrize("message", CLIENT_SAMPLES, ids=sample_id)
def test_client_messages_round_trip(message: ClientMessageBase) -> None:
    text = dump(message)
    assert parse_client_message(text) == message
    assert parse_client_message(text.encode()) == message
    assert CLIENT_ADAPTER.validate_python(message.model_dump()) == message


@pytest.mark.parametrize("message", SERVER_SAMPLES, ids=sample_id)
def test_server_messages_round_trip(message: ServerMessageBase) -> None:
    text = dump(message)
    assert parse_server_message(text) == message
    assert parse_server_message(bytearray(text.encode())) == message
    assert SERVER_ADAPTER.validate_python(message.model_dump()) == message


@pytest.mark.parametrize("message", [*CLIENT_SAMPLES, *SERVER_SAMPLES], ids=sample_id)
def test_dump_leaves_out_nulls_and_starts_with_the_type(message: BaseModel) -> None:
    data = json.loads(dump(message))
    assert next(iter(data)) == "type"
    assert None not in data.values()
    assert "\n" not in dump(message)


def test_full_dump_with_nulls_parses_the_same() -> None:
    message = Move(room_id="r1", move="b1", ply=3)
    assert parse_client_message(message.model_dump_json()) == message
    assert '"id":null' in message.model_dump_json()


def test_board_cells_keep_their_nulls() -> None:
    snapshot = next(m for m in SERVER_SAMPLES if m.type == "room_snapshot")
    board = json.loads(dump(snapshot))["position"]["board"]
    assert board == [None, None, 0, None, None, None]


def test_messages_are_immutable() -> None:
    hello = Hello(name="ada")
    with pytest.raises(ValidationError):
        hello.name = "eve"


def test_room_events_are_the_numbered_messages() -> None:
    numbered = {
        tag
        for tag, cls in SERVER_MESSAGE_TYPES.items()
        if "seq" in cls.model_fields and tag != "room_snapshot"
    }
    assert numbered == ROOM_EVENT_TYPES
    assert all(
        issubclass(SERVER_MESSAGE_TYPES[tag], RoomEvent) or SERVER_MESSAGE_TYPES[tag] is ChatLine
        for tag in ROOM_EVENT_TYPES
    )


def test_every_client_message_takes_an_id_and_every_server_message_a_reply_to() -> None:
    assert all("id" in cls.model_fields for cls in CLIENT_MESSAGE_TYPES.values())
    assert all("reply_to" in cls.model_fields for cls in SERVER_MESSAGE_TYPES.values())


def test_every_field_is_documented() -> None:
    classes = [*CLIENT_MESSAGE_TYPES.values(), *SERVER_MESSAGE_TYPES.values()]
    for cls in classes:
        assert cls.__doc__, cls
        for name, field in cls.model_fields.items():
            if name != "type":
                assert field.description, f"{cls.__name__}.{name} has no docstring"
