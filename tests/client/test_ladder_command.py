"""``gamut ladder``'s pure parts: server URLs and the standings table."""

from __future__ import annotations

from datetime import UTC, datetime

from gamut_client.commands.ladder import format_standings
from gamut_client.web_api import http_base

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_the_http_base_comes_from_a_websocket_or_http_url():
    assert http_base("ws://127.0.0.1:8080/ws") == "http://127.0.0.1:8080"
    assert http_base("wss://games.example/ws") == "https://games.example"
    assert http_base("http://127.0.0.1:9000/") == "http://127.0.0.1:9000"
    assert http_base("localhost:8080") == "http://localhost:8080"


def row(rank: int, name: str, kind: str, rating: int, seen: str | None) -> dict[str, object]:
    return {
        "rank": rank,
        "name": name,
        "kind": kind,
        "rating": rating,
        "uncertainty": 87,
        "games": 12,
        "wins": 9,
        "draws": 1,
        "losses": 2,
        "last_seen": seen,
    }


def test_the_standings_table_has_every_column():
    rows = [
        row(1, "deep-five", "bot", 1834, "2026-03-01T11:58:30+00:00"),
        row(2, "ai-3", "ai", 1502, None),
    ]
    lines = format_standings(rows, NOW).splitlines()
    assert lines[0].split() == [
        "rank",
        "name",
        "ranked",
        "by",
        "rating",
        "games",
        "wins",
        "draws",
        "losses",
        "last",
        "seen",
    ]
    assert lines[1].split() == [
        "1",
        "deep-five",
        "1573",
        "1834",
        "±",
        "87",
        "12",
        "9",
        "1",
        "2",
        "1",
        "min",
        "ago",
    ]
    assert "ai-3 (AI)" in lines[2]
    assert lines[2].endswith("never")


def test_the_standings_show_the_figure_they_are_ranked_by():
    # A surer rating outranks a slightly higher, less sure one: the table says why.
    sure = row(1, "steady", "bot", 2292, None) | {"uncertainty": 240, "ordinal": 1572}
    unsure = row(2, "swingy", "bot", 2301, None) | {"uncertainty": 246, "ordinal": 1563}
    lines = format_standings([sure, unsure], NOW).splitlines()
    assert [line.split()[2] for line in lines[1:3]] == ["1572", "1563"]
    assert "ranked by rating − 3 × uncertainty" in lines[-1]


def test_an_empty_pool_says_so():
    assert "nobody" in format_standings([], NOW)
