"""The analysis service over a real store and real worker processes: requests, refusals,
progress, one analysis per game, and an analysis a stopped server left is taken over."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from gamut_protocol.analysis import ANALYSIS_ADAPTER, AnalysisProgress, GameAnalysis
from gamut_server.ai.analysis_worker import ANALYSIS_NICE
from gamut_server.analyses.allowance import AnalysisAllowances
from gamut_server.analyses.rules import AnalysisRules
from gamut_server.analyses.service import AnalysisRefusedError, AnalysisService
from gamut_server.rooms.limits import Rate
from gamut_server.storage import Store
from tests.server.analysis_games import BLUNDER_GAME, store_game

RULES = AnalysisRules(
    workers=1, nice=0, work=400, per_address=Rate(capacity=2, per_second=1 / 3600)
)
"""Little work a position, and an address may start two analyses. The workers run at the
server's priority: at the lowest, on a machine as busy as a test run's, an analysis
waits for minutes (``test_the_workers_run_at_the_lowest_priority`` checks the default)."""

WAIT_S = 120.0
"""Longest an analysis of these short games may take on a loaded machine."""


@pytest.fixture
async def service(store: Store) -> AsyncIterator[AnalysisService]:
    running = AnalysisService(store, RULES, alone=True)
    await running.start()
    yield running
    await running.close()


async def finished(service: AnalysisService, game_id: str) -> GameAnalysis:
    """The analysis of ``game_id`` once it is done."""
    async with asyncio.timeout(WAIT_S):
        while True:
            answer = ANALYSIS_ADAPTER.validate_python(await service.answer(game_id))
            if isinstance(answer, GameAnalysis):
                return answer
            assert answer.status != "failed", answer.message
            await asyncio.sleep(0.2)


async def test_a_finished_game_is_analysed_once_and_kept(
    service: AnalysisService, store: Store
) -> None:
    game_id = await store_game(store, BLUNDER_GAME)
    assert await service.answer(game_id) is None
    status, body = await service.ask(game_id, "10.0.0.1", None)
    assert status == 202
    progress = ANALYSIS_ADAPTER.validate_python(body)
    assert isinstance(progress, AnalysisProgress)
    assert (progress.status, progress.total) == ("queued", len(BLUNDER_GAME) + 1) or (
        progress.status == "running"
    )
    report = await finished(service, game_id)
    assert [ply.move for ply in report.plies] == BLUNDER_GAME
    assert report.plies[6].mark == "blunder"
    assert report.plies[6].best.move in ("b3", "f3")
    status, again = await service.ask(game_id, "10.0.0.2", None)
    assert status == 200
    assert again == report.model_dump(mode="json", exclude_none=True)
    stored = await store.analysis(game_id)
    assert stored is not None
    assert stored.report == again


async def test_refusals_say_why(service: AnalysisService, store: Store) -> None:
    running = await store_game(store, BLUNDER_GAME[:3], result=None)
    empty = await store_game(store, [], result=None)
    await store.abort_game(empty)
    refusals = {
        "nosuchgame": (404, "unknown_game_id", "no game has the id"),
        running: (409, "game_running", "still being played"),
        empty: (422, "no_moves", "nothing to analyse"),
    }
    for game_id, (status, code, words) in refusals.items():
        with pytest.raises(AnalysisRefusedError) as refused:
            await service.ask(game_id, "10.0.0.3", None)
        assert (refused.value.status, refused.value.code) == (status, code)
        assert words in refused.value.message


async def test_an_address_may_start_only_so_many_analyses(
    service: AnalysisService, store: Store
) -> None:
    games = [await store_game(store, BLUNDER_GAME[:moves]) for moves in (4, 5, 6)]
    for game_id in games[:2]:
        status, _ = await service.ask(game_id, "10.0.0.4", None)
        assert status == 202
    with pytest.raises(AnalysisRefusedError) as refused:
        await service.ask(games[2], "10.0.0.4", None)
    assert refused.value.status == 429
    assert "your address has asked for 2 analyses" in refused.value.message
    status, _ = await service.ask(games[2], "10.0.0.5", None)  # another address may
    assert status == 202
    status, _ = await service.ask(games[0], "10.0.0.4", None)  # one under way costs nothing
    assert status == 202


def test_an_account_is_limited_whatever_its_address() -> None:
    allowances = AnalysisAllowances(Rate(5, 1 / 60), Rate(2, 1 / 60))
    for address in ("10.0.0.7", "10.0.0.8"):
        assert allowances.check(address, "zoe", 0) is None
        allowances.spend(address, "zoe", 0)
    refusal = allowances.check("10.0.0.9", "zoe", 1_000)
    assert refusal is not None
    assert refusal.sentence() == (
        "the account zoe has asked for 2 analyses lately, the most allowed at once (then one "
        "every 60 seconds); the next is allowed in 59 seconds"
    )
    assert allowances.check("10.0.0.9", None, 1_000) is None
    assert allowances.check("10.0.0.9", "zoe", 61_000) is None


async def test_an_analysis_a_stopped_server_left_is_taken_over(store: Store) -> None:
    game_id = await store_game(store, BLUNDER_GAME)
    long_ago = datetime.now(UTC) - timedelta(hours=1)
    await store.claim_analysis(game_id, len(BLUNDER_GAME) + 1, RULES.work, long_ago)
    await store.analysis_progress(game_id, "running", 3, long_ago)
    service = AnalysisService(store, RULES, alone=False)
    rules = service.rules
    await service.start()
    try:
        await service._adopt(datetime.now(UTC) - timedelta(seconds=rules.stale_s))
        report = await finished(service, game_id)
    finally:
        await service.close()
    assert report.plies[6].mark == "blunder"


async def test_the_workers_run_at_the_lowest_priority(store: Store) -> None:
    game_id = await store_game(store, BLUNDER_GAME[:2])
    service = AnalysisService(store, AnalysisRules(work=100), alone=True)
    await service.start()
    try:
        await service.ask(game_id, "10.0.0.10", None)
        await finished(service, game_id)
        pids = list(service.pool._executor._processes)  # type: ignore[union-attr]
        assert pids
        server = os.getpriority(os.PRIO_PROCESS, 0)
        for pid in pids:
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, server + ANALYSIS_NICE)
    finally:
        await service.close()
