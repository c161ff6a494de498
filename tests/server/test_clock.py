"""Server-measured clocks: untimed, per-move and total-plus-increment, driven by now_ms."""

from __future__ import annotations

from gamut_protocol import Clocks, Fischer, PerMove, Untimed
from gamut_server.rooms import GameClock
from gamut_server.rooms.clock import initial_remaining
from gamut_server.storage import Clock


def test_untimed_clocks_time_turns_but_never_flag():
    clock = GameClock(Untimed())
    clock.start(0, 1_000)
    assert not clock.timed
    assert clock.remaining(0, 10**9) is None
    assert clock.deadline_ms() is None
    assert clock.flagged(10**9) is None
    assert clock.clocks(5_000) is None
    assert clock.press(4_500) == 3_500
    assert clock.stored(4_600) == Clock(remaining_ms=None, to_move=1)


def test_per_move_limit_resets_after_every_move():
    clock = GameClock(PerMove(move_ms=5_000), lag_allowance_ms=0)
    clock.start(0, 0)
    assert clock.remaining(0, 3_000) == 2_000
    assert clock.remaining(1, 3_000) == 5_000
    assert clock.press(3_000) == 3_000
    assert clock.clocks(3_000) == Clocks(remaining_ms=(5_000, 5_000), running=1)
    assert clock.remaining(1, 7_000) == 1_000
    assert clock.deadline_ms() == 8_000


def test_fischer_charges_the_mover_and_adds_the_increment():
    clock = GameClock(Fischer(initial_ms=60_000, increment_ms=2_000), lag_allowance_ms=0)
    clock.start(0, 0)
    clock.press(10_000)
    assert clock.clocks(10_000) == Clocks(remaining_ms=(52_000, 60_000), running=1)
    clock.press(15_000)
    assert clock.clocks(15_000) == Clocks(remaining_ms=(52_000, 57_000), running=0)
    assert clock.stored(16_000) == Clock(remaining_ms=(51_000, 57_000), to_move=0)


def test_a_side_flags_only_past_the_lag_allowance():
    clock = GameClock(PerMove(move_ms=1_000), lag_allowance_ms=300)
    clock.start(0, 0)
    assert clock.deadline_ms() == 1_300
    assert clock.flagged(1_299) is None
    assert clock.remaining(0, 1_200) == 0
    assert clock.flagged(1_300) == 0


def test_a_move_within_the_allowance_counts_with_the_clock_at_zero():
    clock = GameClock(Fischer(initial_ms=1_000, increment_ms=500), lag_allowance_ms=300)
    clock.start(0, 0)
    assert clock.flagged(1_200) is None
    assert clock.press(1_200) == 1_200
    assert clock.remaining(0, 1_200) == 500


def test_pause_and_resume_leave_the_downtime_uncharged():
    clock = GameClock(Fischer(initial_ms=60_000), lag_allowance_ms=0)
    clock.start(0, 0)
    clock.pause(10_000)
    assert clock.running is None
    assert clock.deadline_ms() is None
    assert clock.remaining(0, 500_000) == 50_000
    assert clock.flagged(500_000) is None
    clock.resume(500_000)
    assert clock.clocks(500_000) == Clocks(remaining_ms=(50_000, 60_000), running=0)
    assert clock.remaining(0, 505_000) == 45_000
    assert clock.press(505_000) == 15_000
    assert clock.deadline_ms() == 505_000 + 60_000


def test_stop_freezes_the_clocks_for_good():
    clock = GameClock(Fischer(initial_ms=10_000), lag_allowance_ms=0)
    clock.start(0, 0)
    clock.stop(4_000)
    assert clock.clocks(99_000) == Clocks(remaining_ms=(6_000, 10_000), running=None)
    assert clock.deadline_ms() is None
    clock.resume(100_000)
    assert clock.running is None


def test_a_restored_clock_starts_from_the_stored_times():
    clock = GameClock(Fischer(initial_ms=60_000), remaining=(12_345, 54_321), lag_allowance_ms=0)
    clock.start(1, 7_000)
    assert clock.clocks(8_000) == Clocks(remaining_ms=(12_345, 53_321), running=1)
    assert clock.deadline_ms() == 7_000 + 54_321


def test_initial_times():
    assert initial_remaining(Untimed()) is None
    assert initial_remaining(PerMove(move_ms=5_000)) == (5_000, 5_000)
    assert initial_remaining(Fischer(initial_ms=3_000, increment_ms=1)) == (3_000, 3_000)
