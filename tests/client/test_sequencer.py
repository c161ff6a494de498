"""Room sequence numbers on the client: each event once, in order, gaps asked about."""

from __future__ import annotations

import pytest

from gamut_client.addresses import server_url
from gamut_client.sequencer import Sequencer
from gamut_protocol import (
    ErrorMessage,
    GameOver,
    GameResult,
    LobbySnapshot,
    Resume,
    RoomLeft,
)
from tests.client.test_connection import chat, snapshot


def test_events_after_a_snapshot_are_delivered_in_order() -> None:
    sequencer = Sequencer()
    assert sequencer.admit(snapshot("r1", seq=2)).deliver
    assert sequencer.admit(chat(3)).deliver
    assert sequencer.admit(chat(4)).deliver
    assert sequencer.rooms == {"r1": 4}


def test_repeats_are_dropped() -> None:
    sequencer = Sequencer()
    sequencer.admit(snapshot("r1", seq=2))
    assert not sequencer.admit(chat(2)).deliver
    assert not sequencer.admit(chat(1)).deliver
    assert sequencer.rooms == {"r1": 2}


def test_a_gap_asks_once_for_the_missing_events() -> None:
    sequencer = Sequencer()
    sequencer.admit(snapshot("r1", seq=2))
    first = sequencer.admit(chat(5))
    assert not first.deliver
    assert first.resume == Resume(room_id="r1", after_seq=2)
    again = sequencer.admit(chat(6))
    assert (again.deliver, again.resume) == (False, None)
    assert sequencer.admit(chat(3)).deliver
    assert sequencer.admit(chat(6)).resume == Resume(room_id="r1", after_seq=3)


def test_a_snapshot_replaces_what_was_known() -> None:
    sequencer = Sequencer()
    sequencer.admit(snapshot("r1", seq=2))
    sequencer.admit(chat(9))
    assert sequencer.admit(snapshot("r1", seq=9)).deliver
    assert sequencer.admit(chat(10)).deliver
    assert sequencer.rooms == {"r1": 10}


def test_resumes_name_every_room_and_its_last_event() -> None:
    sequencer = Sequencer()
    sequencer.admit(snapshot("r1", seq=2))
    sequencer.admit(snapshot("r2", seq=7))
    sequencer.admit(chat(3))
    assert sequencer.resumes() == [
        Resume(room_id="r1", after_seq=3),
        Resume(room_id="r2", after_seq=7),
    ]
    assert sequencer.admit(chat(9)).resume is None


def test_leaving_or_losing_a_room_forgets_it() -> None:
    sequencer = Sequencer()
    sequencer.admit(snapshot("r1"))
    sequencer.admit(snapshot("r2"))
    sequencer.admit(RoomLeft(room_id="r1"))
    gone = ErrorMessage(code="unknown_room", message="gone", request="resume", room_id="r2")
    sequencer.refused(gone)
    assert sequencer.rooms == {}
    assert sequencer.admit(chat(4)).deliver


def test_game_over_marks_the_room_finished() -> None:
    sequencer = Sequencer()
    sequencer.admit(snapshot("r1"))
    assert not sequencer.is_finished("r1")
    sequencer.admit(GameOver(room_id="r1", seq=1, result=GameResult(winner=0, reason="resign")))
    assert sequencer.is_finished("r1")


def test_messages_outside_rooms_pass() -> None:
    assert Sequencer().admit(LobbySnapshot()).deliver


@pytest.mark.parametrize(
    ("given", "url"),
    [
        ("ws://example.org:8080/ws", "ws://example.org:8080/ws"),
        ("localhost:8080", "ws://localhost:8080/ws"),
        ("http://localhost:8080/", "ws://localhost:8080/ws"),
        ("https://gamut.example/live", "wss://gamut.example/live"),
    ],
)
def test_server_urls(given: str, url: str) -> None:
    assert server_url(given) == url


def test_a_server_url_needs_a_websocket_scheme() -> None:
    with pytest.raises(ValueError, match="ws://"):
        server_url("ftp://example.org")
