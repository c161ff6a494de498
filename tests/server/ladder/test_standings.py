"""Standings rank by the conservative rating; crosstables count each pair's results."""

from __future__ import annotations

from datetime import UTC, datetime

from gamut_server.ladder.ratings import Skill
from gamut_server.ladder.standings import (
    GameScore,
    RatedPlayer,
    Record,
    crosstable,
    standings,
)


def player(name: str, mu: float, sigma: float, games: int = 0) -> RatedPlayer:
    return RatedPlayer(name, "bot", Skill(mu, sigma), Record(wins=games))


def test_standings_rank_by_ordinal_not_by_mean():
    sure = player("sure", 1700, 50, 40)  # ordinal 1550
    lucky = player("lucky", 1900, 200, 3)  # ordinal 1300
    new = player("new", 1500, 500)  # ordinal 0
    rows = standings([new, lucky, sure])
    assert [(row.rank, row.player.name) for row in rows] == [(1, "sure"), (2, "lucky"), (3, "new")]


def test_ties_go_to_more_games_then_to_the_name():
    rows = standings(
        [player("b", 1500, 100, 1), player("a", 1500, 100, 1), player("c", 1500, 100, 5)]
    )
    assert [row.player.name for row in rows] == ["c", "a", "b"]


def test_a_row_as_json_has_every_column_of_the_table():
    seen = datetime(2026, 3, 1, 12, tzinfo=UTC)
    rated = RatedPlayer("deep", "bot", Skill(1612.4, 88.6), Record(5, 2, 3), seen)
    row = standings([rated])[0].as_json()
    assert row == {
        "rank": 1,
        "name": "deep",
        "kind": "bot",
        "rating": 1612,
        "uncertainty": 89,
        "ordinal": 1347,
        "mu": 1612.4,
        "sigma": 88.6,
        "games": 10,
        "wins": 5,
        "draws": 2,
        "losses": 3,
        "last_seen": "2026-03-01T12:00:00+00:00",
    }


def test_record_adds_wins_draws_and_losses():
    record = Record().add(1.0).add(0.5).add(0.0).add(1.0)
    assert (record.wins, record.draws, record.losses, record.games) == (2, 1, 1, 4)


def test_crosstable_counts_each_pair_from_both_sides():
    games = [
        GameScore(("a", "b"), 0),
        GameScore(("b", "a"), 0),
        GameScore(("a", "b"), None),
        GameScore(("c", "a"), 1),
    ]
    table = crosstable(["a", "b"], games)
    assert table.names == ("a", "b", "c")
    assert table.cell("a", "b") == Record(1, 1, 1)
    assert table.cell("b", "a") == Record(1, 1, 1)
    assert table.cell("a", "c") == Record(1, 0, 0)
    assert table.cell("c", "a") == Record(0, 0, 1)
    assert table.cell("b", "c") == Record()
    data = table.as_json()
    assert data["names"] == ["a", "b", "c"]
    assert data["rows"][0]["results"][0] is None
    assert data["rows"][0]["results"][1] == {"games": 3, "wins": 1, "draws": 1, "losses": 1}
    assert data["rows"][1]["results"][2] is None
