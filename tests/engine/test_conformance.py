"""One conformance suite, run over every registered game and variant: the contract holds.

The checks are the engine's own kit (:mod:`gamut_engine.testing`), which any game package
runs against its game; the variants come from the games' declarations. A game registered
in the ``gamut.games`` group is covered without being named here.
"""

from __future__ import annotations

import pytest

from gamut_engine import GAMES, load_game
from gamut_engine.testing import CHECKS, Case, ConformanceError, cases, check_game

CASES = [case for name in GAMES for case in cases(name)]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_game_conforms(case: Case) -> None:
    case.run()


def test_the_built_in_games_declare_their_perft_counts() -> None:
    for name in ("network", "connect5", "loa", "crusher"):
        assert GAMES[name].perft_counts, name


def test_a_broken_game_fails_with_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    hex_class = GAMES["hex"]
    monkeypatch.setattr(hex_class, "perft_counts", (25, 601))
    with pytest.raises(ConformanceError, match="perft 2 is 600, declared 601"):
        CHECKS["perft_counts"](load_game("hex"), 0)
    monkeypatch.setattr(hex_class, "format_move", lambda self, move: "zz")
    report = check_game("hex", playouts=1)
    assert not report.passed
    assert "FAIL hex-moves_round_trip-0: InvalidMoveError: 'zz' is not a cell" in report.text()
    assert report.text().endswith(f"hex: fails {len(report.failures)} ({report.ran} cases)")
