"""Token-bucket rate limits driven by now_ms."""

from __future__ import annotations

import pytest

from gamut_server.rooms import ConnectionLimits, Rate, TokenBucket


def test_a_burst_passes_then_the_sustained_rate_holds():
    bucket = TokenBucket(capacity=3, per_second=2, now_ms=0)
    assert [bucket.allow(0) for _ in range(4)] == [True, True, True, False]
    assert bucket.wait_ms(0) == 500
    assert not bucket.allow(499)
    assert bucket.allow(500)
    assert not bucket.allow(500)


def test_the_bucket_refills_only_to_its_capacity():
    bucket = TokenBucket(capacity=2, per_second=10, now_ms=0)
    bucket.allow(0)
    bucket.allow(0)
    assert bucket.tokens(60_000) == 2
    assert bucket.allow(60_000)
    assert bucket.allow(60_000)
    assert not bucket.allow(60_000)


def test_refused_messages_cost_nothing():
    bucket = TokenBucket(capacity=1, per_second=1, now_ms=0)
    bucket.allow(0)
    for t in range(0, 1_000, 100):
        assert not bucket.allow(t)
    assert bucket.allow(1_000)


def test_time_going_backwards_gives_no_tokens():
    bucket = TokenBucket(capacity=1, per_second=1, now_ms=5_000)
    bucket.allow(5_000)
    assert not bucket.allow(1_000)
    assert bucket.tokens(5_500) == pytest.approx(0.5)


def test_a_flood_of_chat_is_held_back_while_other_messages_pass():
    limits = ConnectionLimits(0, messages=Rate(100, 50), chat=Rate(5, 0.5))
    chats = [limits.allow("chat", 0) for _ in range(20)]
    assert chats.count(True) == 5
    assert limits.allow("move", 0)
    assert not limits.allow("chat", 1_000)
    assert limits.allow("chat", 2_000)


def test_a_flood_of_any_message_is_held_back():
    limits = ConnectionLimits(0, messages=Rate(10, 5))
    passed = sum(limits.allow("ping", 0) for _ in range(1_000))
    assert passed == 10
    assert sum(limits.allow("ping", 1_000) for _ in range(100)) == 5


def test_bad_rates_are_refused():
    with pytest.raises(ValueError, match="positive"):
        TokenBucket(capacity=0, per_second=1)
    with pytest.raises(ValueError, match="positive"):
        TokenBucket(capacity=1, per_second=0)
