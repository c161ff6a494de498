"""The cycle collector around a timed move: held off while the AI chooses, run after."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from gamut_engine import load_game
from gamut_engine.players import AIPlayer
from gamut_engine.search.collection import collector_held, holds


class CollectionLog:
    """Which collections started while a move was being chosen, and which after."""

    def __init__(self) -> None:
        self.inside = False
        self.started: list[bool] = []

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started.append(self.inside)


@contextmanager
def logged_collections() -> Iterator[CollectionLog]:
    log = CollectionLog()
    gc.callbacks.append(log)
    try:
        yield log
    finally:
        gc.callbacks.remove(log)


def allocate_containers(count: int = 5_000) -> None:
    """Enough new containers to cross the young generation's threshold."""
    kept = [[index] for index in range(count)]
    del kept


def test_holds_nest_and_only_the_last_lets_the_collector_run() -> None:
    assert gc.isenabled()
    with collector_held():
        with collector_held():
            assert not gc.isenabled()
            assert holds() == 2
        assert not gc.isenabled()
    assert gc.isenabled()
    assert holds() == 0


def test_a_collector_off_before_the_hold_stays_off_after() -> None:
    gc.disable()
    try:
        with collector_held():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_no_collection_starts_inside_a_move_and_one_follows_it() -> None:
    game = load_game("loa", size=6)
    state = game.initial_state()
    player = AIPlayer(depth=4)
    with logged_collections() as log:
        log.inside = True
        player.choose_move(game, state)
        log.inside = False
        allocate_containers()
    assert player.last_stats is not None
    assert player.last_stats.nodes > 1_000
    assert True not in log.started, "the collector ran while the move was being chosen"
    assert False in log.started, "what the search left was never collected"
