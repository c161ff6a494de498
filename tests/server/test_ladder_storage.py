"""The ladder's storage over real databases: ratings, history, membership, queue, tokens."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gamut_server.storage import (
    AlreadyRatedError,
    Clock,
    NewGame,
    Player,
    RatingUpdate,
    Result,
    Store,
    queue_record,
)
from tests.server.storage_backends import Backend

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    """A fixed instant ``seconds`` after T0."""
    return T0 + timedelta(seconds=seconds)


async def rated_game(store: Store, game_id: str, p0: str, p1: str, winner: int | None) -> None:
    """A finished rated game of pool ``c5`` between two bots."""
    spec = NewGame(
        game="connect5",
        options={"size": 9},
        time_control={"kind": "per_move", "move_ms": 1000},
        players=(Player(p0, "bot"), Player(p1, "bot")),
        clock=Clock((1000, 1000), 0),
        rated=True,
        pool="c5",
        game_id=game_id,
    )
    await store.create_game(spec, at=at(0))
    await store.finish_game(game_id, Result(winner, "five"), at=at(1))


def updates(p0: str, p1: str, winner: int | None) -> tuple[RatingUpdate, RatingUpdate]:
    score = 0.5 if winner is None else float(winner == 0)
    return (
        RatingUpdate(p0, "bot", 0, score, (1500.0, 500.0), (1500.0 + 100 * score, 450.0)),
        RatingUpdate(p1, "bot", 1, 1 - score, (1500.0, 500.0), (1600.0 - 100 * score, 450.0)),
    )


async def test_a_rated_game_stores_history_and_both_ratings(store: Store) -> None:
    await rated_game(store, "g1", "ann", "bob", 0)
    await store.record_rating("g1", "c5", updates("ann", "bob", 0), at=at(2))
    rows = {row.name: row for row in await store.ratings("c5")}
    assert (rows["ann"].mu, rows["ann"].sigma, rows["ann"].wins) == (1600.0, 450.0, 1)
    assert (rows["bob"].mu, rows["bob"].losses, rows["bob"].draws) == (1500.0, 1, 0)
    assert (rows["ann"].first_side, rows["bob"].first_side) == (1, -1)
    assert rows["ann"].last_played_at == at(2)
    history = await store.rating_history("c5")
    assert [(h.name, h.opponent, h.side, h.score) for h in history] == [
        ("ann", "bob", 0, 1.0),
        ("bob", "ann", 1, 0.0),
    ]
    assert history[0].before == (1500.0, 500.0)
    assert history[0].after == (1600.0, 450.0)


async def test_records_accumulate_over_games_and_draws(store: Store) -> None:
    for number, winner in enumerate([0, None, 1]):
        await rated_game(store, f"g{number}", "ann", "bob", winner)
        await store.record_rating(f"g{number}", "c5", updates("ann", "bob", winner))
    (ann, bob) = await store.ratings("c5")
    assert (ann.wins, ann.draws, ann.losses, ann.first_side) == (1, 1, 1, 3)
    assert (bob.wins, bob.draws, bob.losses) == (1, 1, 1)
    assert await store.ratings("other") == []
    assert len(await store.ratings()) == 2
    assert len(await store.rating_history("c5", name="ann")) == 3


async def test_a_game_is_rated_once(store: Store) -> None:
    await rated_game(store, "g1", "ann", "bob", 0)
    await store.record_rating("g1", "c5", updates("ann", "bob", 0))
    with pytest.raises(AlreadyRatedError):
        await store.record_rating("g1", "c5", updates("ann", "bob", 0))
    (ann, _) = await store.ratings("c5")
    assert ann.wins == 1


async def test_unrated_games_are_found_for_catching_up(store: Store) -> None:
    await rated_game(store, "g1", "ann", "bob", 0)
    await rated_game(store, "g2", "bob", "ann", 1)
    await store.record_rating("g1", "c5", updates("ann", "bob", 0))
    assert [info.id for info in await store.unrated_games()] == ["g2"]


async def test_history_since_a_time(store: Store) -> None:
    await rated_game(store, "g1", "ann", "bob", 0)
    await rated_game(store, "g2", "ann", "bob", 0)
    await store.record_rating("g1", "c5", updates("ann", "bob", 0), at=at(10))
    await store.record_rating("g2", "c5", updates("ann", "bob", 0), at=at(20))
    assert {h.game_id for h in await store.rating_history("c5", since=at(15))} == {"g2"}


async def test_membership_survives_a_restart(backend: Backend) -> None:
    async with await backend.open() as store:
        await store.set_membership("c5", "ann", member=True, at=at(0))
        await store.set_membership("c5", "bob", member=True, at=at(1))
        await store.set_membership("c5", "bob", member=False, at=at(2))
        await store.set_membership("loa", "ann", member=True, at=at(3))
        await store.mark_seen("ann", at=at(4))
    async with await backend.open() as store:
        rows = await store.memberships(pool="c5")
        assert [(m.name, m.member) for m in rows] == [("ann", True), ("bob", False)]
        assert rows[0].last_seen_at == at(4)
        assert rows[1].left_at == at(2)
        assert [m.pool for m in await store.memberships(name="ann")] == ["c5", "loa"]
        await store.set_membership("c5", "bob", member=True, at=at(5))
        (bob,) = await store.memberships(pool="c5", name="bob")
        assert bob.member
        assert bob.joined_at == at(5)


async def test_the_queue_history_is_kept_in_order(store: Store) -> None:
    await store.record_queue_events(
        [
            queue_record("c5", "ann", "join", at=at(0)),
            queue_record("c5", "ann", "paired", game_id="g1", wait_ms=250, at=at(1)),
            queue_record("c5", "bob", "away", at=at(2)),
            queue_record("loa", "ann", "join", at=at(3)),
        ]
    )
    await store.record_queue_events([])
    events = await store.queue_events("c5")
    assert [(e.name, e.event) for e in events] == [
        ("ann", "join"),
        ("ann", "paired"),
        ("bob", "away"),
    ]
    assert (events[1].game_id, events[1].wait_ms) == ("g1", 250)
    assert [e.event for e in await store.queue_events("c5", limit=2)] == ["paired", "away"]
    assert [e.event for e in await store.queue_events("c5", name="bob")] == ["away"]


async def test_reissue_replaces_the_hash_and_lifts_a_revocation(store: Store) -> None:
    await store.create_account("ann", "old-hash")
    assert await store.revoke_account("ann")
    assert await store.reissue_account("ann", "new-hash")
    account = await store.account("ann")
    assert account is not None
    assert (account.token_hash, account.revoked) == ("new-hash", False)
    assert not await store.reissue_account("nobody", "x")
