"""Analyses in storage, on SQLite and PostgreSQL: one per game, claimed once, adopted when stale."""

from __future__ import annotations

from datetime import timedelta

from gamut_server.storage import Store
from tests.server.test_storage import at, new_game

REPORT = {"status": "done", "plies": [{"ply": 0, "move": "h8", "mark": None}]}


async def test_an_analysis_is_claimed_once_then_runs_and_is_kept(store: Store) -> None:
    game_id = await store.add_game(new_game(), at=at(0))
    assert await store.analysis(game_id) is None
    claimed = await store.claim_analysis(game_id, total=3, work=500, at=at(1))
    assert claimed is not None
    assert (claimed.status, claimed.done, claimed.total, claimed.work) == ("queued", 0, 3, 500)
    assert await store.claim_analysis(game_id, total=3, work=500, at=at(2)) is None
    await store.analysis_progress(game_id, "running", 2, at(3))
    running = await store.analysis(game_id)
    assert running is not None
    assert (running.status, running.done, running.updated_at) == ("running", 2, at(3))
    await store.finish_analysis(game_id, REPORT, at(4))
    done = await store.analysis(game_id)
    assert done is not None
    assert (done.status, done.done, done.report, done.finished_at) == ("done", 3, REPORT, at(4))
    await store.analysis_progress(game_id, "running", 1, at(5))  # a late report changes nothing
    assert await store.analysis(game_id) == done


async def test_a_failed_analysis_says_why_and_can_be_queued_again(store: Store) -> None:
    game_id = await store.add_game(new_game(), at=at(0))
    await store.claim_analysis(game_id, total=3, work=500, at=at(1))
    await store.fail_analysis(game_id, "the worker stopped", at(2))
    failed = await store.analysis(game_id)
    assert failed is not None
    assert (failed.status, failed.message) == ("failed", "the worker stopped")
    assert await store.adopt_analysis(game_id, failed.updated_at, 3, 700, at(3))
    again = await store.analysis(game_id)
    assert again is not None
    assert (again.status, again.message, again.work) == ("queued", None, 700)


async def test_a_stale_analysis_is_adopted_by_one_server_only(store: Store) -> None:
    first = await store.add_game(new_game(), at=at(0))
    second = await store.add_game(new_game(), at=at(0))
    await store.claim_analysis(first, total=3, work=500, at=at(1))
    await store.claim_analysis(second, total=3, work=500, at=at(2))
    await store.touch_analyses([second], at(100))
    stale = await store.stale_analyses(at(1) + timedelta(seconds=60))
    assert [record.game_id for record in stale] == [first]
    seen = stale[0].updated_at
    assert await store.adopt_analysis(first, seen, 3, 500, at(120))
    assert not await store.adopt_analysis(first, seen, 3, 500, at(121))


async def test_a_finished_analysis_is_never_adopted(store: Store) -> None:
    game_id = await store.add_game(new_game(), at=at(0))
    await store.claim_analysis(game_id, total=3, work=500, at=at(1))
    await store.finish_analysis(game_id, REPORT, at(2))
    assert not await store.adopt_analysis(game_id, at(2), 3, 500, at(3))
    assert await store.stale_analyses(at(1000)) == []
