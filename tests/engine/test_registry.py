"""The game registry: games found through the ``gamut.games`` entry points, in order,
and packages that register a game wrongly named in words."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamut_engine import GAMES, Capabilities, load_game
from gamut_engine.registry import RegistryError, _classes


def test_the_built_in_games_come_first_then_the_others() -> None:
    assert list(GAMES)[:4] == ["network", "connect5", "loa", "crusher"]
    assert "hex" in GAMES  # from the test package in tests/plugins
    assert load_game("hex", size=3).title == "Hex 3×3"


def test_an_unknown_game_is_refused_with_the_games_there_are() -> None:
    with pytest.raises(
        ValueError, match="unknown game 'chess'; the games are connect4, connect5, crusher"
    ):
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


ENGINE = Path(__file__).parents[2] / "engine"
"""The engine's source folder."""


def test_the_built_in_games_need_no_installed_metadata(tmp_path: Path) -> None:
    # -I -S: no site-packages nor PYTHONPATH, so no installed metadata; only the sources.
    code = (
        f"import sys; sys.path.insert(0, {str(ENGINE)!r}); "
        "from gamut_engine import GAMES, Capabilities, load_game; "
        "print(list(GAMES), load_game('loa', size=6).title)"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "['network', 'connect5', 'loa', 'crusher'] Lines of Action 6×6"
    )


@pytest.mark.parametrize(
    ("game", "options", "sentence"),
    [
        ("network", {"max_plies": 5}, "option 'max_plies' is at least 10, not 5"),
        ("connect5", {"max_plies": 3000}, "option 'max_plies' is at most 2000, not 3000"),
        ("loa", {"max_plies": 10**9}, "option 'max_plies' is at most 2000"),
        ("crusher", {"max_plies": 9}, "option 'max_plies' is at least 10, not 9"),
        ("hex", {"size": 12}, "option 'size' is at most 9, not 12"),
    ],
)
def test_every_declared_option_is_enforced(game: str, options: dict[str, object], sentence: str):
    with pytest.raises(ValueError, match=sentence):
        load_game(game, **options)


class Solitaire(GAMES["hex"]):  # type: ignore[misc,valid-type]
    """Hex for one player: a game no server can host."""

    name = "solitaire"
    capabilities = Capabilities(players=1)


class Painted(GAMES["hex"]):  # type: ignore[misc,valid-type]
    """Hex with colours written wrongly."""

    name = "painted"
    colours = ("red", "#0000ff")


def test_a_game_a_server_cannot_host_is_refused_in_a_sentence(broken_package: Path) -> None:
    register(broken_package, "solitaire = tests.engine.test_registry:Solitaire")
    with pytest.raises(RegistryError, match="cannot be hosted: it has 1 players; Gamut hosts"):
        list(GAMES)


def test_colours_written_wrongly_are_refused(broken_package: Path) -> None:
    register(broken_package, "painted = tests.engine.test_registry:Painted")
    with pytest.raises(RegistryError, match="declares bad colours: colours are two colours"):
        list(GAMES)
