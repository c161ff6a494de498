"""Ending a game by agreement or by choice: draws, resignation, abort, and rematches."""

from __future__ import annotations

from gamut_protocol import (
    Abort,
    AcceptDraw,
    DeclineDraw,
    DeclineRematch,
    DrawDeclined,
    DrawOffered,
    GameOver,
    Leave,
    OfferDraw,
    Rematch,
    RematchDeclined,
    RematchOffered,
    RematchStarted,
    Resign,
)
from gamut_server.rooms import (
    OpenRoom,
    RoomChanged,
    SeatSpec,
    StoreAbort,
    StoreResult,
    ai_seat,
    first_phase,
)
from tests.server.rooms_support import (
    ALICE,
    BOB,
    CAROL,
    error_to,
    network_spec,
    only,
    play,
    received,
    seqs,
    started_room,
)


def test_resigning_gives_the_opponent_the_win():
    room, _ = started_room()
    batch = room.handle(BOB, Resign(room_id="r1", id="r"), 50)
    over = only(received(batch, ALICE), GameOver)
    assert (over.result.winner, over.result.reason) == (0, "resign")
    assert over.result.message == "Black resigns: White wins"
    assert only(received(batch, BOB), GameOver).reply_to == "r"
    stored = only(batch, StoreResult)
    assert (stored.result.winner, stored.result.reason) == (0, "resign")
    assert only(batch, RoomChanged).summary.status == "finished"


def test_a_draw_offered_and_accepted_ends_the_game_drawn():
    room, _ = started_room()
    offered = room.handle(ALICE, OfferDraw(room_id="r1"), 10)
    assert only(received(offered, BOB), DrawOffered).side == 0
    assert room.snapshot(BOB, 11).draw_offer == 0
    accepted = room.handle(BOB, AcceptDraw(room_id="r1"), 12)
    over = only(received(accepted, ALICE), GameOver)
    assert (over.result.winner, over.result.reason) == (None, "agreement")
    assert only(accepted, StoreResult).result.winner is None
    assert room.snapshot(BOB, 13).draw_offer is None


def test_a_declined_draw_is_announced_and_cleared():
    room, _ = started_room()
    room.handle(ALICE, OfferDraw(room_id="r1"), 10)
    declined = room.handle(BOB, DeclineDraw(room_id="r1"), 11)
    assert only(received(declined, ALICE), DrawDeclined).side == 1
    refused = room.handle(BOB, AcceptDraw(room_id="r1"), 12)
    assert error_to(refused, BOB).code == "nothing_offered"


def test_a_draw_offer_lapses_when_the_opponent_moves_but_not_when_the_offerer_does():
    room, _ = started_room()
    room.handle(ALICE, OfferDraw(room_id="r1"), 10)
    play(room, ALICE, "02", 11)
    assert room.snapshot(BOB, 11).draw_offer == 0
    play(room, BOB, "10", 12)
    assert room.snapshot(BOB, 12).draw_offer is None
    assert error_to(room.handle(BOB, AcceptDraw(room_id="r1"), 13), BOB).code == "nothing_offered"


def test_offering_a_draw_while_the_opponent_offers_one_accepts_it():
    room, _ = started_room()
    room.handle(ALICE, OfferDraw(room_id="r1"), 10)
    batch = room.handle(BOB, OfferDraw(room_id="r1"), 11)
    assert only(received(batch, ALICE), GameOver).result.reason == "agreement"


def test_draw_offers_are_for_players_of_a_running_game_only():
    room, _ = started_room()
    assert error_to(room.handle(CAROL, OfferDraw(room_id="r1"), 1), CAROL).code == "not_in_room"
    room.handle(ALICE, OfferDraw(room_id="r1"), 2)
    again = room.handle(ALICE, OfferDraw(room_id="r1"), 3)
    assert error_to(again, ALICE).code == "unavailable"
    own = room.handle(ALICE, AcceptDraw(room_id="r1"), 4)
    assert error_to(own, ALICE).code == "nothing_offered"
    room.handle(BOB, Resign(room_id="r1"), 5)
    late = room.handle(ALICE, OfferDraw(room_id="r1"), 6)
    assert error_to(late, ALICE).code == "game_over"


def test_the_ai_declines_a_draw_at_once():
    spec = network_spec(seats=(SeatSpec("alice", "human"), ai_seat(2)))
    room, _ = started_room(spec, members=(ALICE,))
    batch = room.handle(ALICE, OfferDraw(room_id="r1"), 10)
    events = received(batch, ALICE)
    assert [type(event) for event in events] == [DrawOffered, DrawDeclined]
    assert seqs(events) == [1, 2]
    assert room.draw_offer is None


def test_abort_before_both_sides_have_moved():
    room, _ = started_room()
    play(room, ALICE, "02", 10)
    batch = room.handle(BOB, Abort(room_id="r1"), 20)
    over = only(received(batch, ALICE), GameOver)
    assert (over.result.winner, over.result.reason) == (None, "aborted")
    abort = only(first_phase(batch), StoreAbort)
    assert (abort.room_id, abort.reason, abort.seq) == ("r1", "aborted", over.seq)
    assert room.snapshot(ALICE, 21).status == "aborted"
    assert only(batch, RoomChanged).summary.status == "aborted"


def test_abort_at_the_very_start():
    room, _ = started_room()
    batch = room.handle(ALICE, Abort(room_id="r1"), 1)
    assert only(received(batch, BOB), GameOver).result.reason == "aborted"


def test_too_late_to_abort_once_both_have_moved():
    room, _ = started_room()
    play(room, ALICE, "02", 10)
    play(room, BOB, "10", 20)
    batch = room.handle(ALICE, Abort(room_id="r1"), 30)
    assert error_to(batch, ALICE).code == "too_late_to_abort"
    assert not room.over


def test_a_rematch_offered_and_accepted_opens_a_new_room_with_sides_exchanged():
    room, _ = started_room()
    room.handle(BOB, Resign(room_id="r1"), 5)
    offered = room.handle(BOB, Rematch(room_id="r1"), 6)
    assert only(received(offered, ALICE), RematchOffered).side == 1
    assert room.snapshot(ALICE, 7).rematch_offer == 1
    accepted = room.handle(ALICE, Rematch(room_id="r1", id="yes"), 8)
    opening = only(first_phase(accepted), OpenRoom)
    assert opening.room_id == "rematch1"
    assert [seat.name for seat in opening.spec.seats] == ["bob", "alice"]
    assert opening.spec.game == "network"
    assert {who.name for who in opening.members} == {"alice", "bob"}
    started = only(received(accepted, BOB), RematchStarted)
    assert started.new_room_id == "rematch1"
    assert only(received(accepted, ALICE), RematchStarted).reply_to == "yes"
    again = room.handle(BOB, Rematch(room_id="r1"), 9)
    assert error_to(again, BOB).code == "unavailable"


def test_a_rematch_can_be_declined():
    room, _ = started_room()
    room.handle(BOB, Resign(room_id="r1"), 5)
    room.handle(ALICE, Rematch(room_id="r1"), 6)
    batch = room.handle(BOB, DeclineRematch(room_id="r1"), 7)
    assert only(received(batch, ALICE), RematchDeclined).side == 1
    nothing = room.handle(BOB, DeclineRematch(room_id="r1"), 8)
    assert error_to(nothing, BOB).code == "nothing_offered"


def test_no_rematch_while_the_game_runs():
    room, _ = started_room()
    assert error_to(room.handle(ALICE, Rematch(room_id="r1"), 5), ALICE).code == "unavailable"


def test_the_rematch_offer_lapses_when_its_offerer_leaves():
    room, _ = started_room()
    room.handle(BOB, Resign(room_id="r1"), 5)
    room.handle(ALICE, Rematch(room_id="r1"), 6)
    batch = room.handle(ALICE, Leave(room_id="r1"), 7)
    assert only(received(batch, BOB), RematchDeclined).side == 0
    assert room.rematch_offer is None


def test_the_ai_accepts_a_rematch_at_once():
    spec = network_spec(seats=(SeatSpec("alice", "human"), ai_seat(4)))
    room, _ = started_room(spec, members=(ALICE,))
    room.handle(ALICE, Resign(room_id="r1"), 5)
    batch = room.handle(ALICE, Rematch(room_id="r1"), 6)
    opening = only(batch, OpenRoom)
    assert opening.spec.seats == (ai_seat(4), SeatSpec("alice", "human"))
    assert [who.name for who in opening.members] == ["alice"]
