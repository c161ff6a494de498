"""Time in a room: clocks that flag, reconnection grace, and the hosted AI's turns."""

from __future__ import annotations

from gamut_protocol import (
    Fischer,
    GameOver,
    Join,
    MoveMade,
    PlayerConnected,
    PlayerDisconnected,
    TimeControl,
)
from gamut_server.rooms import (
    Effect,
    Log,
    RequestAIMove,
    Room,
    RoomConfig,
    SeatSpec,
    StoreMove,
    StoreResult,
    ai_seat,
)
from tests.server.rooms_support import (
    ALICE,
    ALICE_AGAIN,
    BOB,
    CAROL,
    clocks_of,
    error_to,
    network_spec,
    only,
    per_move,
    play,
    received,
    started_room,
)

GRACE = RoomConfig(
    grace_ms=60_000, untimed_grace_ms=60_000, abandon_ms=600_000, lag_allowance_ms=500
)
"""The grace periods of these tests, the same with a clock or without."""


def test_a_move_in_time_is_accepted_with_the_clocks():
    room, _ = started_room(network_spec(per_move(5_000)))
    assert clocks_of(room.snapshot(ALICE, 1_000).clocks).remaining_ms == (4_000, 5_000)
    batch = play(room, ALICE, "02", 4_900)
    made = only(received(batch, BOB), MoveMade)
    assert made.think_ms == 4_900
    assert clocks_of(made.clocks).remaining_ms == (5_000, 5_000)
    assert clocks_of(made.clocks).running == 1
    assert only(batch, StoreMove).clock.remaining_ms == (5_000, 5_000)


def test_the_flag_falls_at_the_deadline():
    room, _ = started_room(network_spec(per_move(5_000)))
    play(room, ALICE, "02", 1_000)
    deadline = room.next_deadline_ms()
    assert deadline == 1_000 + 5_000 + 500
    assert room.expire(deadline - 1) == []
    batch = room.expire(deadline)
    over = only(received(batch, ALICE), GameOver)
    assert (over.result.winner, over.result.reason) == (0, "timeout")
    assert clocks_of(over.clocks).remaining_ms == (5_000, 0)
    stored = only(batch, StoreResult).clock
    assert stored is not None
    assert stored.remaining_ms == (5_000, 0)
    assert room.next_deadline_ms() is None
    assert room.expire(deadline + 10_000) == []


def test_a_move_after_the_flag_loses_on_time_even_if_expire_was_late():
    room, _ = started_room(network_spec(per_move(5_000)))
    batch = play(room, ALICE, "02", 9_000)
    assert only(received(batch, BOB), GameOver).result.reason == "timeout"
    assert error_to(batch, ALICE).code == "game_over"
    assert room.match.ply == 0


def test_fischer_clocks_run_down_across_moves():
    room, _ = started_room(network_spec(Fischer(initial_ms=10_000, increment_ms=1_000)))
    play(room, ALICE, "02", 3_000)
    play(room, BOB, "10", 4_000)
    snapshot = room.snapshot(CAROL, 4_000)
    assert clocks_of(snapshot.clocks).remaining_ms == (8_000, 10_000)
    assert room.next_deadline_ms() == 4_000 + 8_000 + 500


def test_a_dropped_player_gets_the_grace_period_then_loses():
    room, _ = started_room(config=GRACE)
    dropped = room.disconnected(BOB, 10_000)
    event = only(received(dropped, ALICE), PlayerDisconnected)
    assert (event.side, event.grace_ms) == (1, 60_000)
    assert room.snapshot(ALICE, 10_001).players[1].connected is False
    assert room.next_deadline_ms() == 70_000
    assert room.expire(69_999) == []
    batch = room.expire(70_000)
    over = only(received(batch, ALICE), GameOver)
    assert (over.result.winner, over.result.reason) == (0, "abandoned")
    assert only(batch, StoreResult).result.reason == "abandoned"


def test_coming_back_within_the_grace_period_saves_the_game():
    room, _ = started_room(config=GRACE)
    room.disconnected(BOB, 10_000)
    back = room.connected(BOB, 50_000)
    assert only(received(back, ALICE), PlayerConnected).side == 1
    assert room.next_deadline_ms() is None
    assert room.expire(200_000) == []
    assert room.snapshot(ALICE, 200_000).players[1].connected


def test_a_second_connection_keeps_the_seat_present():
    room, _ = started_room(config=GRACE)
    room.handle(ALICE_AGAIN, Join(room_id="r1", role="player"), 5)
    assert received(room.disconnected(ALICE, 10), BOB) == []
    assert room.next_deadline_ms() is None
    assert only(received(room.disconnected(ALICE_AGAIN, 20), BOB), PlayerDisconnected).side == 0


def test_a_spectator_leaving_is_no_absence():
    room, _ = started_room(config=GRACE)
    room.handle(CAROL, Join(room_id="r1"), 1)
    batch = room.disconnected(CAROL, 2)
    assert received(batch, ALICE) == []
    assert room.next_deadline_ms() is None


def test_absence_counts_only_while_the_opponent_is_present():
    room, _ = started_room(config=GRACE)
    room.disconnected(BOB, 0)
    room.disconnected(ALICE, 30_000)
    assert room.next_deadline_ms() == 30_000 + 600_000
    assert room.expire(100_000) == []
    room.connected(ALICE, 100_000)
    assert room.next_deadline_ms() == 160_000
    over = only(received(room.expire(160_000), ALICE), GameOver)
    assert (over.result.winner, over.result.reason) == (0, "abandoned")


def test_both_players_away_too_long_ends_the_game_drawn():
    room, _ = started_room(config=GRACE)
    room.handle(CAROL, Join(room_id="r1"), 1)
    room.disconnected(BOB, 0)
    room.disconnected(ALICE, 30_000)
    over = only(received(room.expire(630_000), CAROL), GameOver)
    assert (over.result.winner, over.result.reason) == (None, "abandoned")
    assert over.result.message == "Both players left the game: a draw"


def test_the_clock_keeps_running_while_a_player_is_away():
    room, _ = started_room(network_spec(per_move(5_000)), config=GRACE)
    room.disconnected(ALICE, 1_000)
    assert room.next_deadline_ms() == 5_500
    assert only(received(room.expire(5_500), BOB), GameOver).result.reason == "timeout"


def ai_room(ai_side: int = 1, control: TimeControl | None = None) -> tuple[Room, list[Effect]]:
    """alice against the AI at level 5."""
    seats = (SeatSpec("alice", "human"), ai_seat(5))
    if ai_side == 0:
        seats = (seats[1], seats[0])
    return started_room(network_spec(control, seats), members=(ALICE,))


def test_the_ai_is_asked_to_move_when_it_is_its_turn():
    room, start = ai_room(ai_side=0, control=per_move(5_000))
    request = only(start, RequestAIMove)
    assert (request.room_id, request.game, request.ply, request.side) == ("r1", "network", 0, 0)
    assert request.moves == ()
    assert request.level == 5
    assert request.options == {"rules": "cs61b", "max_plies": 400}
    assert request.budget_ms == 4_700
    answered = room.ai_move(0, "33", 2_000)
    made = only(received(answered, ALICE), MoveMade)
    assert (made.move, made.side, made.think_ms) == ("33", 0, 2_000)
    assert only(answered, StoreMove).move == "33"
    assert [r for r in answered if isinstance(r, RequestAIMove)] == []
    again = play(room, ALICE, "10", 3_000)
    follow = only(again, RequestAIMove)
    assert (follow.ply, follow.moves) == (2, ("33", "10"))


def test_the_ai_is_not_asked_twice_for_the_same_ply():
    room, start = ai_room(ai_side=1)
    assert [e for e in start if isinstance(e, RequestAIMove)] == []
    first = play(room, ALICE, "02", 100)
    assert only(first, RequestAIMove).ply == 1
    assert not any(isinstance(e, RequestAIMove) for e in room.resume_play(200))


def test_a_stale_ai_answer_is_ignored():
    room, _ = ai_room(ai_side=1)
    play(room, ALICE, "02", 100)
    wrong_ply = room.ai_move(0, "10", 200)
    assert [type(e) for e in wrong_ply] == [Log]
    assert room.match.ply == 1


def test_an_illegal_ai_answer_is_replaced_by_a_legal_move():
    room, _ = ai_room(ai_side=1)
    play(room, ALICE, "02", 100)
    batch = room.ai_move(1, "00", 200)
    assert only(batch, Log).level == "error"
    assert only(received(batch, ALICE), MoveMade).side == 1
    assert room.match.ply == 2


def test_the_ai_answer_after_the_game_ended_is_ignored():
    room, _ = ai_room(ai_side=0)
    room.disconnected(ALICE, 0)
    room.expire(10**9)
    assert room.over
    assert [type(e) for e in room.ai_move(0, "33", 10**9)] == [Log]


def test_an_ai_game_ends_when_the_human_stays_away():
    """The AI waits for nobody: an untimed game against it ends after an hour's absence,
    not the 72 hours a game between people waits."""
    room, _ = ai_room(ai_side=1)
    room.disconnected(ALICE, 0)
    grace = RoomConfig().untimed_ai_grace_ms
    assert grace == 3_600_000 < RoomConfig().untimed_grace_ms
    assert room.next_deadline_ms() == grace
    assert room.expire(grace - 1) == []
    over = only(room.expire(grace), StoreResult)
    assert (over.result.winner, over.result.reason) == (1, "abandoned")
