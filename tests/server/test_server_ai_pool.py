"""The AI's process pool: answers for every game, off the event loop, and survives a crash."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from gamut_engine import GAMES, load_game
from gamut_engine.search.levels import search_level
from gamut_engine.search.result import LEAST_TIME
from gamut_server.ai import worker
from gamut_server.ai.pool import AIPool, AIUnavailableError
from gamut_server.ai.worker import (
    TRANSFER_MARGIN,
    ThinkAnswer,
    ThinkRequest,
    position_after,
    replay,
    think,
    variant_key,
)


@pytest.fixture
async def pool() -> AsyncIterator[AIPool]:
    running = AIPool(1)
    await running.start()
    yield running
    await running.close()


def opening(game: str) -> tuple[str, ...]:
    """The first two moves of ``game`` in the engine's order."""
    rules = load_game(game)
    state, moves = rules.initial_state(), []
    for _ in range(2):
        move = rules.legal_moves(state)[0]
        moves.append(rules.format_move(move))
        state = rules.apply(state, move)
    return tuple(moves)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_worker_finds_a_legal_move_after_the_moves_so_far(game: str) -> None:
    moves = opening(game)
    answer = think(ThinkRequest(game, {}, moves, level=2, budget_ms=2_000))
    rules = load_game(game)
    state = replay(rules, moves)
    assert answer.ply == 2
    assert rules.parse_move(state, answer.move) in rules.legal_moves(state)


def test_the_worker_plays_on_from_the_position_it_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    moves = opening("connect5")
    answer = think(ThinkRequest("connect5", {}, moves, level=1, budget_ms=500))
    rules = load_game("connect5")
    after = replay(rules, (*moves, answer.move))
    reply = rules.format_move(rules.legal_moves(after)[0])
    read: list[str] = []
    parse = rules.parse_move

    def counted(state: object, text: str) -> object:
        read.append(text)
        return parse(state, text)

    monkeypatch.setattr(rules, "parse_move", counted)
    game_so_far = (*moves, answer.move, reply)
    state = position_after(rules, variant_key("connect5", {}), game_so_far)
    assert read == [reply]
    assert rules.encode(state) == rules.encode(replay(load_game("connect5"), game_so_far))
    assert rules.ply(state) == 4


async def test_searches_run_in_a_worker_while_the_loop_goes_on(pool: AIPool) -> None:
    ticks = 0
    # Lines of Action: its search goes straight to alpha-beta, which finishes its first
    # depth however busy the machine (Connect Five's threat searches may take a short
    # budget whole before alpha-beta starts, answering with no node counted)
    request = ThinkRequest("loa", {}, (), level=8, budget_ms=300)
    search = asyncio.create_task(pool.think(request))
    while not search.done():
        ticks += 1
        await asyncio.sleep(0)
    answer = await search
    assert answer.nodes > 0
    assert ticks > 100, "the event loop kept running while the search did"


async def test_a_dead_worker_is_replaced(pool: AIPool) -> None:
    executor = pool._executor
    assert executor is not None
    for process in list(executor._processes.values()):
        assert process.pid is not None
        os.kill(process.pid, signal.SIGKILL)
    request = ThinkRequest("network", {}, (), level=1, budget_ms=500)
    with pytest.raises(BrokenProcessPool):
        await pool.think(request)
    answer = await pool.think(request)
    assert answer.ply == 0


async def test_closing_abandons_a_running_search() -> None:
    closing = AIPool(1)
    await closing.start()
    executor = closing._executor
    assert executor is not None
    workers = list(executor._processes.values())
    request = ThinkRequest("connect5", {}, ("h8",), level=8, budget_ms=3_600_000)
    search = asyncio.create_task(closing.think(request))
    while closing.thinking == 0:
        await asyncio.sleep(0.01)
    await closing.close()
    assert not any(process.is_alive() for process in workers), "an hour's search was waited for"
    with pytest.raises(BrokenProcessPool):
        await search
    assert not closing.available


async def test_no_pool_means_no_ai() -> None:
    off = AIPool(0)
    await off.start()
    assert not off.available
    with pytest.raises(AIUnavailableError):
        await off.think(ThinkRequest("network", {}, (), level=1, budget_ms=100))


def asked_time(monkeypatch: pytest.MonkeyPatch, request: ThinkRequest) -> float:
    """The most seconds the worker lets the level search for ``request``."""
    asked: list[float] = []
    real = search_level

    def recorded(searcher: Any, state: Any, level: Any, **options: Any) -> Any:
        asked.append(options["max_time"] - options["spent"])
        return real(searcher, state, level, **options)

    monkeypatch.setattr(worker, "search_level", recorded)
    think(request)
    return asked[0]


def test_the_worker_keeps_a_margin_for_the_answers_way_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = ThinkRequest("network", {}, (), level=8, budget_ms=400, issued=time.monotonic())
    assert asked_time(monkeypatch, request) <= 0.4 - TRANSFER_MARGIN


def test_the_wait_for_a_worker_comes_out_of_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    queued = time.monotonic() - 0.25
    request = ThinkRequest("network", {}, (), level=8, budget_ms=400, issued=queued)
    assert asked_time(monkeypatch, request) <= 0.4 - 0.25 - TRANSFER_MARGIN


def test_a_request_that_waited_past_its_budget_is_answered_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = ThinkRequest("crusher", {}, (), level=8, budget_ms=400, issued=time.monotonic() - 9)
    assert asked_time(monkeypatch, request) <= LEAST_TIME


async def test_the_pool_stamps_each_request_when_it_is_queued(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[ThinkRequest] = []

    def answer(request: ThinkRequest) -> ThinkAnswer:
        seen.append(request)
        return ThinkAnswer("a1", 0, 0, 0, 0, 0)

    monkeypatch.setattr(worker, "think", answer)
    in_thread = AIPool(1)
    executor = ThreadPoolExecutor(1)
    in_thread._executor = executor  # type: ignore[assignment]
    before = time.monotonic()
    await in_thread.think(ThinkRequest("network", {}, (), level=1, budget_ms=100))
    executor.shutdown()
    assert seen[0].issued is not None
    assert before <= seen[0].issued <= time.monotonic()


def test_a_worker_warms_a_searcher_for_each_expected_variant_before_any_request() -> None:
    worker._searchers.clear()
    warmed = worker.warm_up()
    expected = worker.expected_variants()
    assert warmed == len(expected) >= len(GAMES)
    keys = [variant_key(name, options) for name, options in expected]
    assert sorted(worker._searchers) == sorted(keys)
    network = variant_key("network", dict(load_game("network").options))
    searcher = worker._searchers[network]
    assert searcher.table == {}
    think(ThinkRequest("network", dict(searcher.game.options), (), level=3, budget_ms=2_000))
    assert worker._searchers[network] is searcher  # the request found it ready
