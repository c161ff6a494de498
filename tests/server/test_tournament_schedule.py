"""The pure part of tournaments: round robin schedules, arena pairing and standings."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest

from gamut_server.records.tournaments import TournamentGame
from gamut_server.tournaments.schedule import arena_pairs, round_robin
from gamut_server.tournaments.standings import standings


@pytest.mark.parametrize("players", [2, 3, 4, 5, 8])
@pytest.mark.parametrize("cycles", [1, 2])
def test_a_round_robin_meets_every_pair_once_with_each_colour_each_cycle(
    players: int, cycles: int
) -> None:
    names = [f"p{n}" for n in range(players)]
    rounds = round_robin(names, cycles)
    even = players + players % 2
    assert len(rounds) == 2 * (even - 1) * cycles
    games = Counter(pair for pairs in rounds for pair in pairs)
    assert set(games) == set(permutations(names, 2))
    assert set(games.values()) == {cycles}
    for pairs in rounds:
        seated = [name for pair in pairs for name in pair]
        assert len(seated) == len(set(seated))
    firsts = Counter(first for pairs in rounds for first, _ in pairs)
    assert set(firsts.values()) == {(players - 1) * cycles}
    half = even - 1
    for turn in range(half):  # each cycle's second half mirrors its first
        assert rounds[turn + half] == [(b, a) for a, b in rounds[turn]]


def test_arena_pairs_near_in_points_avoiding_the_last_opponent() -> None:
    points = {"a": 6.0, "b": 5.0, "c": 4.0, "d": 0.0, "e": 0.0}
    pairs = arena_pairs(["e", "d", "c", "b", "a"], points, {"a": "b", "b": "a"}, {})
    assert [set(pair) for pair in pairs] == [{"a", "c"}, {"b", "d"}]
    assert arena_pairs(["a", "b"], points, {"a": "b", "b": "a"}, {}) == [("a", "b")]
    assert arena_pairs(["a", "b"], points, {}, {"a": 3, "b": 1}) == [("b", "a")]
    assert arena_pairs(["a"], points, {}, {}) == []


def test_standings_count_forfeits_and_not_aborted_games() -> None:
    games = [
        TournamentGame(0, 0, "a", "b", "g1", "finished", 0, "five"),
        TournamentGame(1, 0, "c", "a", "g2", "finished", None, "board_full"),
        TournamentGame(2, 1, "b", "c", None, "forfeit", 1, "withdrew"),
        TournamentGame(3, 1, "a", "b", "g3", "aborted", None, "aborted"),
        TournamentGame(4, 2, "a", "c", "g4", "playing"),
    ]
    lines = standings("round_robin", ["a", "b", "c"], games)
    assert [(line.name, line.points, line.games) for line in lines] == [
        ("a", 1.5, 2),
        ("c", 1.5, 2),
        ("b", 0.0, 2),
    ]
    assert lines[0].against == {"b": 1.0, "c": 0.5}
    arena = standings("arena", ["a", "b", "c"], games)
    assert [(line.name, line.points) for line in arena] == [("a", 3.0), ("c", 3.0), ("b", 0.0)]


def test_arena_pairs_never_players_kept_apart() -> None:
    points = {"a": 3.0, "b": 2.0, "c": 1.0}
    apart = lambda one, other: {one, other} == {"a", "b"}  # noqa: E731
    assert arena_pairs(["a", "b", "c"], points, {}, {}) == [("a", "b")]
    assert arena_pairs(["a", "b", "c"], points, {}, {}, apart) == [("a", "c")]
    assert arena_pairs(["a", "b"], points, {}, {}, apart) == []
