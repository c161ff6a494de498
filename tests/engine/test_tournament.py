"""Tournaments on one machine: the schedule, the games and the crosstable (pure)."""

from __future__ import annotations

import pytest

from gamut_engine.registry import load_game
from gamut_engine.tournament import Outcome, Pairing, TournamentSpec, play_pairing, schedule
from gamut_engine.tournament_table import build_table, crosstable_rows

THREE = TournamentSpec("connect5", ("random", "ai:depth=1", "ai:depth=2"), 2, {"size": 9}, 5)


def test_a_round_robin_meets_every_pair_twice_a_round_once_with_each_colour() -> None:
    games = schedule(THREE)
    assert len(games) == 3 * 2 * 2
    assert len({pairing.key for pairing in games}) == len(games)
    for a, b in ((0, 1), (0, 2), (1, 2)):
        firsts = [(p.first, p.second) for p in games if {p.a, p.b} == {a, b}]
        assert firsts.count((a, b)) == firsts.count((b, a)) == 2


def test_a_gauntlet_meets_the_first_player_with_each_other_only() -> None:
    spec = TournamentSpec("connect5", ("ai:1", "random", "ai:depth=1"), 1, gauntlet=True)
    assert {(p.a, p.b) for p in schedule(spec)} == {(0, 1), (0, 2)}


def test_bad_tournaments_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="two players"):
        TournamentSpec("connect5", ("random",))
    with pytest.raises(ValueError, match="only once"):
        TournamentSpec("connect5", ("random", "random"))
    with pytest.raises(ValueError, match="round"):
        TournamentSpec("connect5", ("random", "ai:1"), 0)


def test_every_game_of_a_round_starts_from_the_round_opening() -> None:
    spec = TournamentSpec(
        "connect5", ("random", "ai:depth=1", "ai:depth=2"), 2, {"size": 9}, 5, opening_plies=3
    )
    game = load_game("connect5", size=9)
    openings = [spec.round_opening(game, round_) for round_ in range(2)]
    assert all(len(opening) == 3 for opening in openings)
    assert openings[0] != openings[1]
    for pairing in schedule(spec)[:4] + schedule(spec)[-2:]:
        outcome = play_pairing(spec, pairing)
        assert outcome.moves[:3] == openings[pairing.round]
        assert outcome.opening_plies == 3


def test_the_winner_is_told_by_player_whichever_colour_it_had() -> None:
    spec = TournamentSpec("connect5", ("random", "ai:depth=2"), 1, {"size": 9}, 1)
    outcomes = [play_pairing(spec, pairing) for pairing in schedule(spec)]
    assert [outcome.winner for outcome in outcomes] == [1, 1]
    assert [len(outcome.moves) % 2 for outcome in outcomes] == [0, 1]  # second, then first


def test_the_crosstable_counts_points_against_each_player() -> None:
    outcomes = [
        Outcome(Pairing(0, 0, 1, 0), 1, "five", (), 0),
        Outcome(Pairing(0, 0, 1, 1), None, "board_full", (), 0),
        Outcome(Pairing(0, 0, 2, 0), 0, "five", (), 0),
        Outcome(Pairing(0, 0, 2, 1), 0, "five", (), 0),
    ]
    table = build_table(3, outcomes)
    assert [line.player for line in table.lines] == [0, 1, 2]
    assert [line.points for line in table.lines] == [2.5, 1.5, 0]
    assert table.games == 4
    assert table.reasons == {"five": 3, "board_full": 1}
    first = table.lines[0]
    assert first.against == {1: [0.0, 0.5], 2: [1.0, 1.0]}
    meeting = first.meeting(1)
    assert meeting is not None
    assert meeting.elo < 0 < meeting.high
    rows = crosstable_rows(table, ["p0", "p1", "p2"])
    assert rows[1].split()[:7] == ["1", "p0", "2.5/4", "x", "0.5/2", "2/2", "+89"]
    assert rows[3].split()[3:6] == ["0/2", "-", "x"]
