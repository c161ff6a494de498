"""A match's games played several at once, in worker processes.

The engine's runner (:mod:`gamut_engine.match`) is pure and owns no process: it plays a
match's games one after the other. ``gamut match --jobs`` and the benchmarks play them
here instead, each game a :func:`~gamut_engine.match.play_match_game` call in a worker
process that builds its own players from the spec.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import partial

from gamut_engine.match import GameRecord, MatchPlay, MatchSpec, iter_match, play_match_game
from gamut_engine.tournament import Outcome, Pairing, TournamentSpec, play_pairing


def iter_match_in_processes(spec: MatchSpec, jobs: int) -> Iterator[GameRecord]:
    """Play every game of ``spec``, ``jobs`` at once, yielding each record as its game ends.

    With ``jobs`` above 1 the games run in that many worker processes and arrive in the
    order they finish; with one job (or one game) they are played in this process.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if jobs == 1 or spec.games == 1:
        yield from iter_match(spec)
        return
    with ProcessPoolExecutor(max_workers=min(jobs, spec.games)) as pool:
        futures = [pool.submit(play_match_game, spec, index) for index in range(spec.games)]
        for future in as_completed(futures):
            yield future.result()


def iter_pairings_in_processes(
    spec: TournamentSpec, pairings: Sequence[Pairing], jobs: int
) -> Iterator[Outcome]:
    """Play the tournament games ``pairings``, ``jobs`` at once, yielding each as it ends.

    One job plays them here, in order; more play them in worker processes, arriving in
    the order they finish. Stopping the iteration cancels the games not yet started.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if jobs == 1 or len(pairings) <= 1:
        for pairing in pairings:
            yield play_pairing(spec, pairing)
        return
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(pairings)))
    try:
        futures = [pool.submit(play_pairing, spec, pairing) for pairing in pairings]
        for future in as_completed(futures):
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def in_processes(jobs: int) -> MatchPlay:
    """How :func:`~gamut_engine.match.run_match` plays games ``jobs`` at once."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    return partial(iter_match_in_processes, jobs=jobs)
