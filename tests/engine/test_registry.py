"""The game registry: games found through the ``gamut.games`` entry points, in order,
and packages that register a game wrongly named in words."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamut_engine import GAMES, load_game
from gamut_engine.registry import RegistryError, _classes


def test_the_built_in_games_come_first_then_the_others() -> None:
    assert list(GAMES)[:4] == ["network", "connect5", "loa", "crusher"]
    assert "hex" in GAMES  # from the test package in tests/plugins
    assert load_game("hex", size=3).title == "Hex 3×3"


def test_an_unknown_game_is_refused_with_the_games_there_are() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'; the games are connect5, crusher"):
        load_game("chess")


@pytest.fixture
def broken_package(tmp_path: Path) -> Iterator[Path]:
    """A folder on the import path for a package's metadata; the registry read afresh."""
    sys.path.insert(0, str(tmp_path))
    _classes.cache_clear()
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        _classes.cache_clear()


def register(folder: Path, line: str) -> None:
    """Metadata of a package registering one game with ``line``."""
    info = folder / "broken-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[gamut.games]\n{line}\n")


@pytest.mark.parametrize(
    ("line", "sentence"),
    [
        ("ghost = nowhere.at_all:Ghost", "the game 'ghost' .* cannot be loaded"),
        ("odd = collections:OrderedDict", "the game 'odd' .* is not a Game class"),
        ("tic = gamut_hex.game:HexGame", "must be registered under its own name"),
    ],
)
def test_a_game_registered_wrongly_is_named_in_the_error(
    broken_package: Path, line: str, sentence: str
) -> None:
    register(broken_package, line)
    with pytest.raises(RegistryError, match=sentence):
        list(GAMES)
