"""A room goes back to its mark when a batch was not stored: the same move can be played
again, the same events are numbered again, and a finished game runs again."""

from __future__ import annotations

from gamut_protocol import Chat, ErrorMessage, Join, MoveMade, Resign, dump
from gamut_server.rooms import StoreMove, StoreResult, first_phase
from gamut_server.rooms.rollback import NOT_PLAYED, WAITING, unstored_notices
from tests.server.rooms_support import (
    ALICE,
    BLACK_IDLE,
    BOB,
    CAROL,
    WHITE_WIN,
    network_spec,
    per_move,
    play,
    started_room,
)


def test_a_move_not_stored_is_forgotten_and_can_be_played_again() -> None:
    room, _ = started_room(network_spec(per_move(60_000)))
    play(room, ALICE, WHITE_WIN[0], 1_000)
    before = dump(room.snapshot(ALICE, 2_000))
    mark = room.mark()
    lost = play(room, BOB, BLACK_IDLE[0], 2_000)
    room.rewind(mark)
    assert dump(room.snapshot(ALICE, 2_000)) == before
    assert room.match.ply == 1
    assert room.match.to_move == 1
    again = play(room, BOB, BLACK_IDLE[0], 2_000)
    stored = [e for e in again if isinstance(e, StoreMove)]
    assert stored == [e for e in lost if isinstance(e, StoreMove)]


def test_a_finished_game_not_stored_runs_again() -> None:
    room, _ = started_room()
    mark = room.mark()
    batch = room.handle(ALICE, Resign(room_id="r1", id="r"), 1_000)
    assert any(isinstance(e, StoreResult) for e in first_phase(batch))
    assert room.over
    room.rewind(mark)
    assert room.match.status == "running"
    assert room.match.result is None
    assert room.next_deadline_ms() == mark.match.clock.deadline_ms()


def test_a_chat_line_not_stored_is_forgotten() -> None:
    room, _ = started_room()
    mark = room.mark()
    room.handle(ALICE, Chat(room_id="r1", text="hello", id="c"), 1_000)
    room.rewind(mark)
    assert list(room.chat) == []
    assert room.log.next_seq() == mark.last_seq + 1
    assert room.events_after(mark.last_seq) == []


def test_the_mover_is_told_to_play_again_and_the_others_that_the_game_waits() -> None:
    room, _ = started_room()
    room.handle(CAROL, Join(room_id="r1", role="spectator"), 0)
    batch = play(room, ALICE, WHITE_WIN[0], 1_000, id="m1")
    notices = unstored_notices("r1", room.members.everyone(), batch, (ALICE, "move", "m1"))
    told = {conn: send.message for send in notices for conn in send.to}
    mover = told[ALICE.conn]
    assert isinstance(mover, ErrorMessage)
    assert mover.message == NOT_PLAYED
    assert (mover.code, mover.reply_to, mover.request) == ("unavailable", "m1", "move")
    for other in (BOB, CAROL):
        notice = told[other.conn]
        assert isinstance(notice, ErrorMessage)
        assert notice.message == WAITING
        assert notice.reply_to is None
        assert notice.room_id == "r1"
    assert not any(isinstance(send.message, MoveMade) for send in notices)
