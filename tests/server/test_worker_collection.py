"""An AI worker collects what a search leaves after answering, never inside the move."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from gamut_server.ai import worker_collection
from gamut_server.ai.worker import ThinkRequest, think
from gamut_server.ai.worker_collection import hold_collector


@pytest.fixture
def held_collector() -> Iterator[None]:
    hold_collector()
    try:
        yield
    finally:
        gc.enable()


def test_the_worker_collects_after_its_answer_not_while_thinking(
    held_collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    collected = threading.Event()
    young_at_answer: list[int] = []
    schedule = worker_collection.collect_after_answer

    def noted_schedule() -> threading.Timer:
        young_at_answer.append(gc.get_count()[0])
        return schedule()

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            collected.set()

    monkeypatch.setattr(worker_collection, "collect_after_answer", noted_schedule)
    gc.collect()
    collected.clear()
    gc.callbacks.append(note)
    try:
        answer = think(ThinkRequest("loa", {"size": 6}, (), level=5, budget_ms=2_000))
        assert not gc.isenabled(), "the answer would be pickled with the collector running"
        assert collected.wait(timeout=30), "no collection followed the answer"
    finally:
        gc.callbacks.remove(note)
    assert answer.nodes > 100
    [left_young] = young_at_answer
    assert left_young > gc.get_threshold()[0], "the search left too little to prove anything"
    assert gc.get_count()[0] < left_young
