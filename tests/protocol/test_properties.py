"""Properties over generated messages: parsing never fails unexpectedly, and values survive."""

from __future__ import annotations

import json
import string
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from gamut_protocol import (
    CLIENT_ADAPTER,
    Chat,
    ClientMessage,
    Clocks,
    GameDescriptor,
    Move,
    NotationHint,
    Owner,
    Position,
    ProtocolError,
    RoomSnapshot,
    Seat,
    SquareGeometry,
    dump,
    parse_client_message,
    parse_server_message,
)
from gamut_protocol.common import MAX_CHAT_LENGTH, MAX_PLY, MAX_SEQ

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=20,
)
message_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["move", "hello", "seek", "chat", "resume", "x"])},
    optional={
        "id": json_values,
        "room_id": json_values,
        "move": json_values,
        "ply": json_values,
        "name": json_values,
        "text": json_values,
        "after_seq": json_values,
        "opponent": json_values,
    },
)
room_ids = st.text(string.ascii_letters + string.digits + "_.:-", min_size=1, max_size=64)
correlation_ids = (
    st.none()
    | st.integers(0, MAX_SEQ)
    | st.text(st.characters(blacklist_categories=["Cc", "Cs"]), min_size=1, max_size=64)
)
chat_texts = (
    st.text(st.characters(blacklist_categories=["Cc", "Cs", "Cf", "Cn"]), max_size=MAX_CHAT_LENGTH)
    .filter(lambda text: text.strip() != "")
    .filter(lambda text: "\x7f" not in text)
)


def parsed(data: str | bytes) -> ClientMessage | ProtocolError:
    """The message ``data`` holds, or the refusal; any other exception escapes."""
    try:
        return parse_client_message(data)
    except ProtocolError as error:
        return error


@given(json_values)
def test_any_json_is_parsed_or_refused_with_a_protocol_error(value: Any) -> None:
    result = parsed(json.dumps(value))
    if isinstance(result, ProtocolError):
        assert result.code == "bad_message"
        assert result.to_message().message


@given(message_like)
def test_message_like_objects_are_parsed_or_refused_with_a_protocol_error(
    value: dict[str, Any],
) -> None:
    result = parsed(json.dumps(value))
    if isinstance(result, ProtocolError):
        assert result.code in ("bad_message", "unsupported_version")
        assert result.request in (None, value["type"])
    else:
        assert result.type == value["type"]


@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_escape_as_another_exception(data: bytes) -> None:
    result = parsed(data)
    if isinstance(result, ProtocolError):
        assert result.code in ("bad_json", "bad_message")


@given(st.one_of(st.none(), room_ids), chat_texts, correlation_ids)
def test_chat_text_survives_the_round_trip(
    room_id: str | None, text: str, correlation: str | int | None
) -> None:
    chat = Chat(id=correlation, room_id=room_id, text=text)
    assert parse_client_message(dump(chat)) == chat


@given(room_ids, st.integers(0, MAX_PLY), correlation_ids, st.text(min_size=1, max_size=8))
def test_a_bad_field_is_refused_with_the_id_echoed(
    room_id: str, ply: int, correlation: str | int | None, key: str
) -> None:
    move = Move(id=correlation, room_id=room_id, move="23-45", ply=ply)
    data = json.loads(dump(move))
    if key in data:
        return
    data[key] = 1
    result = parsed(json.dumps(data))
    assert isinstance(result, ProtocolError), "an unknown field was accepted"
    assert result.code == "bad_message"
    assert result.reply_to == correlation
    assert result.request == "move"


@given(
    st.integers(0, 10**7),
    st.integers(0, 10**7),
    st.sampled_from([0, 1, None]),
    st.integers(0, 10**8),
)
def test_clock_readings_never_go_below_zero_or_up(
    first: int, second: int, running: int | None, elapsed: int
) -> None:
    clocks = Clocks.model_validate({"remaining_ms": (first, second), "running": running})
    for side in (0, 1):
        assert 0 <= clocks.remaining(side, elapsed) <= clocks.remaining_ms[side]


@st.composite
def snapshots(draw: st.DrawFn) -> RoomSnapshot:
    width, height = draw(st.integers(1, 19)), draw(st.integers(1, 19))
    rows = tuple(tuple(f"c{x}r{y}" for x in range(width)) for y in range(height))
    owners: list[Owner] = [0, 1, None]
    board = draw(
        st.lists(st.sampled_from(owners), min_size=width * height, max_size=width * height)
    )
    geometry = SquareGeometry(width=width, height=height, rows=rows)
    descriptor = GameDescriptor(
        name="generated",
        title="Generated",
        sides=("A", "B"),
        geometry=geometry,
        notation=NotationHint(summary="Name a cell."),
    )
    return RoomSnapshot(
        room_id="r1",
        seq=draw(st.integers(0, MAX_SEQ)),
        game=descriptor,
        players=(Seat(name="a", kind="human"), Seat(name="b", kind="ai")),
        position=Position(encoding="x", board=tuple(board), to_move=0, ply=0),
        legal_moves=tuple(draw(st.lists(st.sampled_from(geometry.cells), unique=True))),
    )


@given(snapshots())
def test_generated_boards_survive_the_round_trip(snapshot: RoomSnapshot) -> None:
    copy = parse_server_message(dump(snapshot))
    assert copy == snapshot
    assert isinstance(copy, RoomSnapshot)
    assert len(copy.position.board) == len(copy.game.cells)


def test_the_adapter_is_built_once() -> None:
    from gamut_protocol import client

    assert client.CLIENT_ADAPTER is CLIENT_ADAPTER
