"""Parsing refuses every malformed message with the right code, a clear sentence and its id."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gamut_protocol import (
    MAX_CLIENT_MESSAGE_BYTES,
    MIN_PROTOCOL_VERSION,
    PROTOCOL_VERSION,
    ErrorMessage,
    Hello,
    Move,
    ProtocolError,
    check_version,
    dump,
    is_supported_version,
    parse_client_message,
    parse_server_message,
)
from gamut_protocol.common import MAX_TEXT_LENGTH, clip_sentence


def refusal(data: str | bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(data)
    return caught.value


def refusal_of(message: dict[str, Any]) -> ProtocolError:
    return refusal(json.dumps(message))


MOVE = {"type": "move", "room_id": "r1", "move": "23", "ply": 4}


def test_a_good_message_parses_to_its_model() -> None:
    assert parse_client_message(json.dumps(MOVE)) == Move(room_id="r1", move="23", ply=4)


@pytest.mark.parametrize("text", ["", "{", "{bad}", '{"type": "ping",}', "nul", "[1,"])
def test_text_that_is_not_json_is_bad_json(text: str) -> None:
    error = refusal(text)
    assert error.code == "bad_json"
    assert error.message.startswith("the message is not JSON")
    assert error.reply_to is None
    assert not error.fatal


def test_bytes_that_are_not_utf8_are_bad_json() -> None:
    assert refusal(b'{"type": "ping", "id": "\xff"}').code == "bad_json"


@pytest.mark.parametrize("text", ["[]", "5", '"ping"', "null", "true"])
def test_json_that_is_not_an_object_is_bad_message(text: str) -> None:
    error = refusal(text)
    assert error.code == "bad_message"
    assert "JSON object" in error.message


def test_unknown_type_is_refused_naming_the_types() -> None:
    error = refusal_of({"type": "mvoe", "id": 3})
    assert error.code == "bad_message"
    assert "unknown message type 'mvoe'" in error.message
    assert "move, resign" in error.message
    assert error.reply_to == 3
    assert error.request is None


def test_a_missing_type_is_refused() -> None:
    error = refusal_of({"room_id": "r1", "id": "q"})
    assert error.code == "bad_message"
    assert 'no "type" field' in error.message
    assert error.reply_to == "q"


def test_a_server_type_from_a_client_is_an_unknown_type() -> None:
    assert "unknown message type 'pong'" in refusal_of({"type": "pong"}).message


def test_extra_fields_are_refused_by_name() -> None:
    error = refusal_of({**MOVE, "id": 9, "promote": "q"})
    assert error.code == "bad_message"
    assert error.message == "bad move message: unknown field 'promote'"
    assert (error.reply_to, error.request) == (9, "move")


def test_extra_fields_in_nested_models_are_refused() -> None:
    message = {"type": "seek", "game": "network", "opponent": {"kind": "ai", "level": 2, "x": 1}}
    assert "unknown field 'opponent.ai.x'" in refusal_of(message).message


def test_missing_fields_are_named() -> None:
    error = refusal_of({"type": "move", "room_id": "r1"})
    assert "field 'move' is missing" in error.message
    assert "field 'ply' is missing" in error.message


def test_many_problems_are_summarised() -> None:
    message = {"type": "move", "a": 1, "b": 2, "c": 3, "d": 4}
    error = refusal_of(message)
    assert error.message.endswith("field 'ply' is missing (and 4 more)")
    assert len(error.message) <= MAX_TEXT_LENGTH


@pytest.mark.parametrize(
    ("field", "value"),
    [("ply", "4"), ("ply", 4.0), ("ply", True), ("ply", -1), ("move", 23), ("room_id", None)],
)
def test_types_are_strict_and_bounded(field: str, value: object) -> None:
    error = refusal_of({**MOVE, field: value})
    assert error.code == "bad_message"
    assert f"field '{field}'" in error.message


def test_a_boolean_is_not_taken_for_a_number_or_a_string() -> None:
    assert refusal_of({"type": "hello", "name": "ada", "lobby": 1}).code == "bad_message"
    assert refusal_of({"type": "hello", "name": "ada", "protocol": True}).code == "bad_message"


def test_pattern_failures_are_explained_in_words() -> None:
    error = refusal_of({"type": "hello", "name": "ada lovelace"})
    assert error.message == (
        "bad hello message: field 'name' may hold only letters, digits, '_', '.' and '-', "
        "and not start with '.' or '-'"
    )


@pytest.mark.parametrize("bad_id", [True, -1, 2**53, "", "x" * 65, "a\nb", 1.5, [1], {"a": 1}])
def test_only_valid_ids_are_echoed(bad_id: object) -> None:
    error = refusal_of({**MOVE, "id": bad_id})
    assert error.code == "bad_message"
    assert error.reply_to is None


def test_messages_over_the_size_limit_are_too_large_and_fatal() -> None:
    text = json.dumps({"type": "chat", "text": "x" * MAX_CLIENT_MESSAGE_BYTES})
    error = refusal(text)
    assert error.code == "too_large"
    assert error.fatal
    assert error.to_message().fatal


def test_the_size_limit_counts_utf8_bytes() -> None:
    chars = MAX_CLIENT_MESSAGE_BYTES // 2 + 50
    text = json.dumps({"type": "chat", "text": "é" * chars}, ensure_ascii=False)
    assert len(text) < MAX_CLIENT_MESSAGE_BYTES < len(text.encode())
    assert refusal(text).code == "too_large"


def test_version_helpers() -> None:
    assert is_supported_version(PROTOCOL_VERSION)
    assert is_supported_version(MIN_PROTOCOL_VERSION)
    assert not is_supported_version(PROTOCOL_VERSION + 1)
    assert not is_supported_version(MIN_PROTOCOL_VERSION - 1)
    check_version(PROTOCOL_VERSION)
    with pytest.raises(ProtocolError) as caught:
        check_version(PROTOCOL_VERSION + 1, reply_to="h")
    error = caught.value
    assert (error.code, error.fatal, error.reply_to, error.request) == (
        "unsupported_version",
        True,
        "h",
        "hello",
    )
    assert f"not version {PROTOCOL_VERSION + 1}" in error.message
    assert "upgrade the server" in error.message


def test_an_old_client_is_told_to_upgrade() -> None:
    with pytest.raises(ProtocolError) as caught:
        check_version(MIN_PROTOCOL_VERSION - 1)
    assert "upgrade the client" in caught.value.message


def test_a_hello_of_an_unsupported_version_is_refused_as_such() -> None:
    error = refusal_of({"type": "hello", "id": 1, "protocol": PROTOCOL_VERSION + 1, "name": "a"})
    assert (error.code, error.reply_to, error.fatal) == ("unsupported_version", 1, True)


def test_a_newer_hello_with_fields_unknown_here_still_gets_the_version_error() -> None:
    newer = {"type": "hello", "protocol": PROTOCOL_VERSION + 1, "name": "a", "avatar": "x"}
    assert refusal_of(newer).code == "unsupported_version"


def test_a_hello_of_this_version_with_an_unknown_field_is_a_bad_message() -> None:
    hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "a", "avatar": "x"}
    assert refusal_of(hello).code == "bad_message"


def test_refusals_become_error_messages_that_servers_can_send() -> None:
    error = refusal_of({**MOVE, "id": "m1", "ply": "x"})
    message = error.to_message(room_id="r1")
    assert parse_server_message(dump(message)) == message
    assert (message.code, message.reply_to, message.request, message.room_id) == (
        "bad_message",
        "m1",
        "move",
        "r1",
    )


def test_error_answering_a_request_fills_in_its_id_type_and_room() -> None:
    move = Move(id=12, room_id="r9", move="45", ply=2)
    error = ErrorMessage.answering(move, "illegal_move", "45 is occupied.", reason="occupied")
    assert (error.reply_to, error.request, error.room_id, error.reason, error.fatal) == (
        12,
        "move",
        "r9",
        "occupied",
        False,
    )
    hello_error = ErrorMessage.answering(Hello(name="a"), "unsupported_version", "no")
    assert hello_error.room_id is None
    assert hello_error.fatal


def test_long_sentences_are_clipped_to_fit() -> None:
    move = Move(room_id="r9", move="45", ply=2)
    error = ErrorMessage.answering(move, "illegal_move", "x" * 2000)
    assert len(error.message) == MAX_TEXT_LENGTH
    assert error.message.endswith("…")
    assert clip_sentence("short") == "short"


def test_server_messages_are_parsed_strictly_too() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_server_message('{"type": "pong", "extra": 1}')
    assert caught.value.message == "bad pong message: unknown field 'extra'"
    with pytest.raises(ProtocolError) as caught:
        parse_server_message('{"type": "move"}')
    assert "unknown message type 'move'" in caught.value.message
