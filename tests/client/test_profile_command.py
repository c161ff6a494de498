"""``gamut profile``: a player's page as text, its rating graph a line of bars."""

from __future__ import annotations

from gamut_client.commands.profile import format_profile, graph

PROFILE = {
    "name": "Ada_L",
    "created_at": "2026-11-27T03:00:00+00:00",
    "online": False,
    "playing": ["kq3xmn7p"],
    "record": {"wins": 2, "draws": 1, "losses": 0},
    "ratings": [
        {
            "category": "connect5-15.blitz",
            "title": "Connect Five 15×15, blitz",
            "rating": 1601,
            "uncertainty": 402,
            "provisional": True,
            "games": 2,
            "wins": 2,
            "draws": 0,
            "losses": 0,
            "history": [{"rating": 1500}, {"rating": 1562}, {"rating": 1601}],
        }
    ],
}
GAME = {
    "id": "ab2cd3ef",
    "game": "connect5",
    "players": [{"name": "bob", "kind": "human"}, {"name": "Ada_L", "kind": "human"}],
    "status": "finished",
    "result": {"winner": 1, "reason": "five", "line": []},
    "created_at": "2026-11-27T03:10:00+00:00",
    "finished_at": "2026-11-27T03:20:00+00:00",
    "rating_change": {"category": "connect5-15.blitz", "before": 1562, "after": 1601, "change": 39},
}


def test_a_graph_runs_from_the_lowest_bar_to_the_highest():
    assert graph([1500, 1562, 1601]) == "▁▅█"
    assert graph([1500, 1500]) == "▁▁"


def test_the_profile_says_what_the_page_shows():
    text = format_profile(PROFILE, [GAME], "http://h:1")
    assert text.splitlines()[0] == "Ada_L · playing now · member since 2026-11-27"
    assert "  watch: http://h:1/game/kq3xmn7p" in text
    assert "2 won, 1 drawn, 0 lost" in text
    assert "Connect Five 15×15, blitz: 1601? ± 402, 2 games (2 won, 0 drawn, 0 lost)" in text
    assert "▁▅█  1500 → 1601" in text
    assert (
        "  2026-11-27  connect5 against bob: won  rated 1601 (+39)  http://h:1/game/ab2cd3ef?replay"
    ) in text
