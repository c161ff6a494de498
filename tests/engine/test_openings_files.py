"""The opening sets shipped in bench/openings: every opening legal and the game still on."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamut_engine.match import read_openings, written_opening
from gamut_engine.registry import AnyGame, load_game

OPENINGS = Path(__file__).resolve().parents[2] / "bench" / "openings"


def game_of(name: str) -> AnyGame:
    """The game a shipped file's name says it is for."""
    if name.startswith("connect5"):
        return load_game("connect5", size=15)
    rules = "2015" if "2015" in name else "cs61b"
    return load_game("network", rules=rules)


@pytest.mark.parametrize("path", sorted(OPENINGS.glob("*.txt")), ids=lambda path: path.name)
def test_every_shipped_opening_is_legal_and_leaves_the_game_running(path: Path) -> None:
    game = game_of(path.name)
    openings = read_openings(path.read_text())
    assert len(openings) >= 8
    assert len(set(openings)) == len(openings)
    for opening in openings:
        state, moves = written_opening(game, opening)
        assert len(moves) == len(opening)
        assert game.outcome(state) is None


def test_the_connect5_set_is_near_centre_and_says_how_it_was_judged() -> None:
    text = (OPENINGS / "connect5_15.txt").read_text()
    assert text.startswith("# Connect Five 15x15: python bench/connect5_openings.py make")
    game = load_game("connect5", size=15)
    for opening in read_openings(text):
        assert len(opening) == 4
        for move in opening:
            cell = game.parse_move(game.initial_state(), move)
            assert abs(cell // 15 - 7) <= 2
            assert abs(cell % 15 - 7) <= 2
