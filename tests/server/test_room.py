"""The room as a referee: a whole game, the order of checks, spectators and chat."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from gamut_engine import IllegalMoveError
from gamut_protocol import (
    Chat,
    ChatLine,
    ErrorMessage,
    GameOver,
    Join,
    Leave,
    MoveMade,
    PlayerConnected,
    Resign,
    RoomLeft,
    RoomRequest,
    RoomSnapshot,
    dump,
    parse_server_message,
)
from gamut_server.rooms import (
    Effect,
    Room,
    RoomChanged,
    RoomMessage,
    RoomMoved,
    Send,
    StartGame,
    StoreChat,
    StoreMove,
    StoreResult,
    first_phase,
    second_phase,
)
from tests.server.rooms_support import (
    ALICE,
    ALICE_AGAIN,
    BLACK_IDLE,
    BOB,
    CAROL,
    WHITE_WIN,
    all_of,
    error_to,
    network_spec,
    only,
    play,
    received,
    started_room,
)


def play_to_white_win(room: Room, start_ms: int = 1_000, step_ms: int = 250) -> list[list[Effect]]:
    """Play the scripted game through ``room``; returns every batch in order."""
    batches: list[list[Effect]] = []
    now = start_ms
    for white, black in zip(WHITE_WIN, BLACK_IDLE, strict=True):
        batches.append(play(room, ALICE, white, now))
        now += step_ms
        if room.over:
            break
        batches.append(play(room, BOB, black, now))
        now += step_ms
    return batches


def test_start_stores_the_game_and_sends_each_player_their_snapshot():
    _, effects = started_room()
    stored = only(effects, StartGame).game
    assert stored.game_id == "r1"
    assert stored.game == "network"
    assert [p.name for p in stored.players if p] == ["alice", "bob"]
    assert [p.kind for p in stored.players if p] == ["human", "bot"]
    assert stored.clock.remaining_ms is None
    alice = only(received(effects, ALICE), RoomSnapshot)
    bob = only(received(effects, BOB), RoomSnapshot)
    assert (alice.your_side, bob.your_side) == (0, 1)
    assert alice.seq == 0
    assert alice.game.name == "network"
    assert len(alice.legal_moves) > 0
    assert [seat.connected for seat in alice.players] == [True, True]
    assert only(effects, RoomChanged).summary.status == "running"


def test_a_whole_network_game_to_a_win():
    room, _ = started_room(members=(ALICE, BOB))
    room.handle(CAROL, Join(room_id="r1"), 500)
    batches = play_to_white_win(room)
    assert len(batches) == 11
    moves = [only(batch, StoreMove) for batch in batches]
    assert [m.ply for m in moves] == list(range(11))
    assert [m.seq for m in moves] == list(range(1, 12))
    assert [m.move for m in moves[::2]] == list(WHITE_WIN)
    assert all(m.think_ms == 250 for m in moves[1:])

    last = batches[-1]
    over = only(received(last, CAROL), GameOver)
    assert over.seq == 12
    assert over.result.winner == 0
    assert over.result.reason == "network"
    assert over.result.line == WHITE_WIN
    assert over.result.message == "White completes a network"
    result = only(last, StoreResult)
    assert (result.result.winner, result.result.reason, result.seq) == (0, "network", 12)

    snapshot = room.snapshot(CAROL, 9_999)
    assert snapshot.status == "finished"
    assert snapshot.legal_moves == ()
    assert [m.move for m in snapshot.moves[::2]] == list(WHITE_WIN)
    assert snapshot.your_side is None
    assert room.next_deadline_ms() is None


def test_every_message_survives_the_wire_codec():
    room, start = started_room()
    batches = [start, *play_to_white_win(room)]
    for batch in batches:
        for send in all_of(batch, Send):
            assert parse_server_message(dump(send.message)) == send.message


def test_storage_comes_before_messages_in_each_batch():
    room, _ = started_room()
    batch = play(room, ALICE, "02", 10)
    first = first_phase(batch)
    assert [type(effect) for effect in first] == [StoreMove]
    assert all(not isinstance(effect, StoreMove) for effect in second_phase(batch))
    made = only(received(batch, BOB), MoveMade)
    assert made.seq == only(batch, StoreMove).seq


def test_a_move_reaches_everyone_and_the_mover_gets_the_answer_to_its_id():
    room, _ = started_room()
    room.handle(CAROL, Join(room_id="r1"), 1)
    batch = play(room, ALICE, "02", 10, id="m1")
    mine = only(received(batch, ALICE), MoveMade)
    theirs = only(received(batch, BOB), MoveMade)
    watcher = only(received(batch, CAROL), MoveMade)
    assert mine.reply_to == "m1"
    assert theirs.reply_to is None
    assert theirs == watcher
    assert theirs.move == "02"
    assert theirs.cells == ("02",)
    assert theirs.position.ply == 1
    assert theirs.position.to_move == 1
    assert "12" in theirs.legal_moves


def test_wrong_turn_is_refused_and_nothing_changes():
    room, _ = started_room()
    batch = play(room, BOB, "10", 10, id=7)
    error = error_to(batch, BOB)
    assert error.code == "not_your_turn"
    assert error.reply_to == 7
    assert error.request == "move"
    assert error.room_id == "r1"
    assert received(batch, ALICE) == []
    assert room.seq == 0
    assert room.match.ply == 0


@pytest.mark.parametrize("ply", [1, 5])
def test_a_ply_other_than_the_current_one_is_stale(ply):
    room, _ = started_room()
    play(room, ALICE, "02", 10)
    play(room, BOB, "10", 20)
    error = error_to(play(room, ALICE, "22", 30, ply=ply), ALICE)
    assert error.code == "stale_ply"
    assert room.match.ply == 2


@pytest.mark.parametrize(
    ("text", "reason"),
    [("00", "corner"), ("10", "opponent_goal"), ("02-12", "must_add")],
)
def test_an_illegal_move_carries_the_engines_reason_and_sentence(text, reason):
    room, _ = started_room()
    error = error_to(play(room, ALICE, text, 10), ALICE)
    assert error.code == "illegal_move"
    assert error.reason == reason
    game = room.match.game
    with pytest.raises(IllegalMoveError) as engine:
        game.parse_move(game.initial_state(), text)
    assert error.message == engine.value.message


def test_an_occupied_square_is_illegal():
    room, _ = started_room()
    play(room, ALICE, "22", 10)
    error = error_to(play(room, BOB, "22", 20), BOB)
    assert (error.code, error.reason) == ("illegal_move", "occupied")


def test_text_that_is_no_move_is_invalid():
    room, _ = started_room()
    error = error_to(play(room, ALICE, "hello", 10), ALICE)
    assert error.code == "invalid_move"
    assert error.reason is None


def test_checks_come_in_order_who_then_game_then_turn_then_ply():
    room, _ = started_room()
    room.handle(CAROL, Join(room_id="r1"), 1)
    assert error_to(play(room, CAROL, "zz", 5, ply=9), CAROL).code == "not_a_player"
    outsider = ALICE_AGAIN
    assert error_to(play(room, outsider, "02", 5), outsider).code == "not_in_room"
    assert error_to(play(room, BOB, "zz", 5, ply=9), BOB).code == "not_your_turn"
    assert error_to(play(room, ALICE, "zz", 5, ply=9), ALICE).code == "stale_ply"
    room.handle(ALICE, Resign(room_id="r1"), 6)
    assert error_to(play(room, ALICE, "zz", 7, ply=9), ALICE).code == "game_over"


def test_anything_sent_to_a_finished_game_is_refused_but_chat_goes_on():
    room, _ = started_room()
    play_to_white_win(room)
    assert error_to(play(room, BOB, "11", 99_000), BOB).code == "game_over"
    assert error_to(room.handle(BOB, Resign(room_id="r1"), 99_001), BOB).code == "game_over"
    batch = room.handle(BOB, Chat(room_id="r1", text="well played"), 99_002)
    assert only(received(batch, ALICE), ChatLine).text == "well played"


def test_a_spectator_joins_mid_game_and_gets_every_later_event():
    room, _ = started_room()
    play(room, ALICE, "02", 10)
    play(room, BOB, "10", 20)
    joined = room.handle(CAROL, Join(room_id="r1", id="j"), 30)
    snapshot = only(received(joined, CAROL), RoomSnapshot)
    assert snapshot.reply_to == "j"
    assert [m.move for m in snapshot.moves] == ["02", "10"]
    assert snapshot.seq == 2
    assert snapshot.spectators == 1
    assert snapshot.your_side is None
    assert only(joined, RoomChanged).summary.spectators == 1
    later = play(room, ALICE, "22", 40)
    assert only(received(later, CAROL), MoveMade).seq == 3


def test_joining_as_player_takes_ones_own_seat_only():
    room, _ = started_room()
    refused = room.handle(CAROL, Join(room_id="r1", role="player"), 5)
    assert error_to(refused, CAROL).code == "seat_taken"
    joined = room.handle(ALICE_AGAIN, Join(room_id="r1", role="player"), 6)
    assert only(received(joined, ALICE_AGAIN), RoomSnapshot).your_side == 0
    batch = play(room, ALICE_AGAIN, "02", 10)
    assert only(received(batch, ALICE), MoveMade).move == "02"
    assert only(received(batch, ALICE_AGAIN), MoveMade).move == "02"


def test_room_chat_is_numbered_stored_and_kept_for_snapshots():
    room, _ = started_room()
    room.handle(CAROL, Join(room_id="r1"), 1)
    batch = room.handle(CAROL, Chat(room_id="r1", text="good luck", id=3), 5)
    stored = only(batch, StoreChat)
    assert (stored.room_id, stored.seq, stored.author, stored.text) == (
        "r1",
        1,
        "carol",
        "good luck",
    )
    line = only(received(batch, ALICE), ChatLine)
    assert (line.seq, line.author, line.room_id, line.reply_to) == (1, "carol", "r1", None)
    assert only(received(batch, CAROL), ChatLine).reply_to == 3
    assert room.snapshot(ALICE, 6).chat[-1].text == "good luck"
    assert only(play(room, ALICE, "02", 10), StoreMove).seq == 2


def test_chat_from_outside_the_room_is_refused():
    room, _ = started_room()
    batch = room.handle(CAROL, Chat(room_id="r1", text="hi"), 5)
    assert error_to(batch, CAROL).code == "not_in_room"
    assert room.seq == 0


def test_leaving_answers_room_left_and_stops_the_events():
    room, _ = started_room()
    room.handle(CAROL, Join(room_id="r1"), 1)
    left = room.handle(CAROL, Leave(room_id="r1", id="bye"), 2)
    assert only(received(left, CAROL), RoomLeft).reply_to == "bye"
    assert only(left, RoomChanged).summary.spectators == 0
    assert received(play(room, ALICE, "02", 10), CAROL) == []
    assert error_to(room.handle(CAROL, Leave(room_id="r1"), 11), CAROL).code == "not_in_room"


def test_a_player_can_come_back_with_join_after_leaving():
    room, _ = started_room()
    room.handle(ALICE, Leave(room_id="r1"), 5)
    back = room.handle(ALICE, Join(room_id="r1", role="player"), 6)
    assert only(received(back, BOB), PlayerConnected).side == 0
    assert only(received(back, ALICE), RoomSnapshot).your_side == 0


def test_summary_changes_are_reported_once():
    room, _ = started_room()
    batch = play(room, ALICE, "02", 10)
    assert only(batch, RoomMoved) == RoomMoved("r1", 1)
    assert all_of(batch, RoomChanged) == []
    refused = play(room, ALICE, "22", 11)
    assert all_of(refused, RoomChanged) == []
    assert all_of(refused, RoomMoved) == []
    assert isinstance(received(refused, ALICE)[0], ErrorMessage)


def test_a_room_hears_every_room_request_of_the_protocol_and_chat() -> None:
    requests = set(RoomRequest.__subclasses__())
    assert set(typing.get_args(RoomMessage)) == requests | {Chat}


def test_an_opening_is_played_and_stored_before_anyone_moves():
    spec = dataclasses.replace(network_spec(), opening=("02", "10", "22"))
    room, effects = started_room(spec)
    stored = all_of(effects, StoreMove)
    assert [(m.ply, m.move, m.side) for m in stored] == [(0, "02", 0), (1, "10", 1), (2, "22", 0)]
    kinds = [type(effect).__name__ for effect in effects]
    assert kinds.index("StartGame") < kinds.index("StoreMove")
    alice = only(received(effects, ALICE), RoomSnapshot)
    assert [move.move for move in alice.moves] == ["02", "10", "22"]
    assert alice.position.to_move == 1
    assert room.match.ply == 3
    assert received(effects, BOB)[0].type == "room_snapshot"  # no move_made before the snapshot
    moved = play(room, BOB, "30", 100)
    assert only(received(moved, ALICE), MoveMade).ply == 3
    assert spec.swapped().opening == spec.opening
