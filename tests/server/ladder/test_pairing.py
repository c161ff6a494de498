"""Pairing: chance mixed with ratings, no repeats in a row, colours, daily caps, anchors."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from gamut_server.ladder.pairing import DAY_MS, Pairer, PairHistory, PairingRules

RULES = PairingRules(anchor_wait_ms=1000)


def pairer(*names: str, anchors: tuple[str, ...] = (), seed: int = 1, **rules: object) -> Pairer:
    pool = Pairer(
        PairingRules(**{"anchor_wait_ms": 1000, **rules}),  # type: ignore[arg-type]
        random.Random(seed),
        anchors=anchors,
    )
    for name in names:
        pool.enqueue(name, 0)
    return pool


def test_two_waiting_players_are_paired_and_leave_the_queue():
    pool = pairer("a", "b")
    (pairing,) = pool.pair({}, 10)
    assert sorted(pairing.sides) == ["a", "b"]
    assert pairing.waited_ms == (10, 10)
    assert pool.waiting == {}
    assert pool.pair({}, 20) == []


def test_an_odd_player_out_keeps_waiting():
    pool = pairer("a", "b", "c")
    assert len(pool.pair({}, 0)) == 1
    assert len(pool.waiting) == 1


def test_players_kept_apart_are_never_paired_but_meet_others():
    def apart(one: str, other: str) -> bool:
        return {one, other} == {"a", "b"}

    for seed in range(20):
        pool = pairer("a", "b", seed=seed)
        assert pool.pair({}, 10, apart) == []
        pool.enqueue("c", 20)
        (pairing,) = pool.pair({}, 30, apart)
        assert "c" in pairing.sides
        assert len(pool.waiting) == 1


def test_enqueue_twice_keeps_the_first_time_and_withdraw_removes():
    pool = pairer("a")
    assert not pool.enqueue("a", 500)
    assert pool.waiting["a"].since_ms == 0
    assert pool.withdraw("a")
    assert not pool.withdraw("a")
    assert "a" not in pool.present


def test_pairing_is_deterministic_for_a_seed():
    def run(seed: int) -> list[tuple[str, str]]:
        pool = pairer(*"abcdefgh", seed=seed)
        return [p.sides for p in pool.pair({}, 0)]

    assert run(3) == run(3)
    assert any(run(3) != run(seed) for seed in range(4, 10))


def test_close_ratings_meet_more_often_but_far_ones_still_meet():
    ordinals = {"a": 1000.0, "b": 1050.0, "far": 2500.0}
    meetings: Counter[frozenset[str]] = Counter()
    for seed in range(600):
        pool = pairer("a", "b", "far", seed=seed)
        pool.waiting["a"] = pool.waiting["a"].__class__("a", -1)  # a chooses first
        (pairing,) = pool.pair(ordinals, 0)
        meetings[frozenset(pairing.sides)] += 1
    close, far = meetings[frozenset("ab")], meetings[frozenset(("a", "far"))]
    assert close > 3 * far
    assert far > 30


def test_everyone_eventually_meets_everyone():
    names = [f"p{i}" for i in range(8)]
    ordinals = {name: 300.0 * i for i, name in enumerate(names)}
    pool = pairer(*names, seed=5)
    met: set[frozenset[str]] = set()
    for tick in range(400):
        for pairing in pool.pair(ordinals, tick * 100):
            met.add(frozenset(pairing.sides))
            for name in pairing.sides:
                pool.enqueue(name, tick * 100)
    assert met == {frozenset(pair) for pair in combinations(names, 2)}


def test_the_same_pair_never_meets_twice_in_a_row_when_another_opponent_exists():
    pool = pairer("a", "b", "c", "d", seed=2)
    last: dict[str, str] = {}
    for tick in range(200):
        for pairing in pool.pair({}, tick):
            first, second = pairing.sides
            assert last.get(first) != second
            assert last.get(second) != first
            last[first], last[second] = second, first
            pool.enqueue(first, tick)
            pool.enqueue(second, tick)


def test_a_player_waits_rather_than_replay_its_last_opponent():
    pool = pairer("a", "b", "c")
    pool.history.record("a", "b", 0)
    pool.withdraw("c")
    pool.present.add("c")  # c is in the pool, busy in a game
    assert pool.pair({}, 0) == []
    pool.enqueue("c", 5)
    (pairing,) = pool.pair({}, 10)
    assert "c" in pairing.sides


def test_two_players_alone_in_a_pool_may_replay():
    pool = pairer("a", "b")
    pool.history.record("a", "b", 0)
    assert len(pool.pair({}, 0)) == 1


def test_the_daily_cap_stops_a_pair_until_a_day_has_passed():
    pool = pairer("a", "b", cap_per_day=2)
    pool.history.record("a", "b", 0)
    pool.history.record("b", "a", 1000)
    assert pool.pair({}, 5000) == []
    assert pool.history.games_today("a", "b", 5000) == 2
    assert len(pool.pair({}, DAY_MS + 1)) == 1


def test_colours_go_to_whoever_had_the_first_move_less():
    pool = pairer("a", "b")
    pool.history.colour_balance.update({"a": 2, "b": -1})
    (pairing,) = pool.pair({}, 0)
    assert pairing.sides == ("b", "a")
    assert pool.history.colour_balance == {"a": 1, "b": 0}


def test_colours_stay_balanced_over_many_games():
    pool = pairer(*"abcde", seed=9)
    for tick in range(300):
        for pairing in pool.pair({}, tick):
            for name in pairing.sides:
                pool.enqueue(name, tick)
    assert max(abs(b) for b in pool.history.colour_balance.values()) <= 2


def test_anchors_are_offered_only_after_the_anchor_wait():
    pool = pairer("a", anchors=("ai-1", "ai-3"))
    assert pool.pair({}, 999) == []
    (pairing,) = pool.pair({}, 1000)
    anchor = next(name for name in pairing.sides if name != "a")
    assert anchor in ("ai-1", "ai-3")
    assert not pool.anchors[anchor]
    assert pairing.waited_ms[pairing.sides.index(anchor)] == 0


def test_a_busy_anchor_is_not_offered_until_released():
    pool = pairer("a", anchors=("ai-1",))
    (first,) = pool.pair({}, 1000)
    assert "ai-1" in first.sides
    assert not pool.anchors["ai-1"]
    pool.enqueue("c", 1000)
    assert pool.pair({}, 5000) == []
    pool.release_anchor("ai-1")
    (second,) = pool.pair({}, 5000)
    assert sorted(second.sides) == ["ai-1", "c"]


def test_players_prefer_each_other_to_anchors():
    meetings: Counter[str] = Counter()
    for seed in range(300):
        pool = pairer("a", "b", anchors=("ai-1",), seed=seed, anchor_weight=0.25)
        pool.waiting["a"] = pool.waiting["a"].__class__("a", -1)
        for pairing in pool.pair({}, 5000):
            if "a" in pairing.sides:
                meetings[next(n for n in pairing.sides if n != "a")] += 1
    assert meetings["b"] > 2 * meetings["ai-1"] > 0


def test_playing_marks_a_player_present_and_an_anchor_busy():
    pool = pairer("a", anchors=("ai-2",))
    pool.playing("a")
    pool.playing("ai-2")
    assert "a" in pool.present
    assert "a" not in pool.waiting
    assert not pool.anchors["ai-2"]


def test_history_counts_only_the_last_day():
    history = PairHistory()
    history.record("a", "b", 0)
    history.record("a", "b", DAY_MS // 2)
    assert history.games_today("b", "a", DAY_MS // 2 + 1) == 2
    assert history.games_today("a", "b", DAY_MS + 1) == 1
    assert history.games_today("a", "c", 0) == 0
