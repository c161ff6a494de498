"""A match's games played several at once, in worker processes the caller owns."""

from __future__ import annotations

import pytest

from gamut_client.match_jobs import in_processes, iter_match_in_processes
from gamut_engine.match import MatchSpec, run_match
from tests.engine.test_match import CRUSHER_MATCH


def test_worker_processes_play_the_same_games() -> None:
    alone = run_match(CRUSHER_MATCH)
    records = sorted(iter_match_in_processes(CRUSHER_MATCH, 2), key=lambda record: record.index)
    assert [r.moves for r in records] == [r.moves for r in alone.records]
    assert [r.winner for r in records] == [r.winner for r in alone.records]


def test_run_match_plays_in_the_processes_it_is_given() -> None:
    alone = run_match(CRUSHER_MATCH)
    shared = run_match(CRUSHER_MATCH, play=in_processes(2))
    assert [r.moves for r in shared.records] == [r.moves for r in alone.records]


def test_jobs_below_one_are_refused() -> None:
    spec = MatchSpec("network", ("random", "random"))
    with pytest.raises(ValueError, match="jobs"):
        list(iter_match_in_processes(spec, 0))
    with pytest.raises(ValueError, match="jobs"):
        in_processes(0)
