"""``gamut new-game``: the template writes a complete game package, the one in
``tests/plugins/connect4`` is exactly what it writes, and bad names are refused in words."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamut_engine.template import class_name, render

CONNECT4 = Path(__file__).parents[1] / "plugins" / "connect4"
"""The Connect Four package of the tests, written by ``gamut new-game``."""


def test_the_connect_four_plugin_is_what_the_template_writes() -> None:
    for relative, text in render("connect4", "Connect Four").items():
        assert (CONNECT4 / relative).read_text(encoding="utf-8") == text, relative


def test_names_become_classes_and_packages() -> None:
    files = render("drop_three", None)
    assert class_name("drop_three") == "DropThreeGame"
    assert 'drop_three = "gamut_drop_three.game:DropThreeGame"' in files["pyproject.toml"]
    assert 'self.title = f"Drop Three {width}×{height}"' in files["gamut_drop_three/game.py"]
    assert 'cases("drop_three")' in files["tests/test_drop_three.py"]


@pytest.mark.parametrize(
    ("name", "title", "sentence"),
    [
        ("Connect4", None, "'Connect4' cannot name a game"),
        ("4inarow", None, "'4inarow' cannot name a game"),
        ("ok", 'say "hi"', "cannot be a title"),
    ],
)
def test_bad_names_are_refused_in_words(name: str, title: str | None, sentence: str) -> None:
    with pytest.raises(ValueError, match=sentence):
        render(name, title)


def test_the_command_writes_a_new_folder_only(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "gamut_client.cli", "new-game", "drop", "--folder", "drop"]
    first = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert first.returncode == 0, first.stderr
    assert (tmp_path / "drop" / "gamut_drop" / "game.py").is_file()
    assert "next: cd drop && pip install -e . && gamut check-game drop" in first.stdout
    again = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert again.returncode != 0
    assert "is not empty; choose a new folder" in again.stderr


AUTHORING = Path(__file__).parents[2] / "docs" / "games" / "authoring.md"
"""The author's guide, written around the Connect Four the template writes."""


def test_the_guides_code_is_the_templates_code() -> None:
    package = render("connect4", "Connect Four")
    sources = package["gamut_connect4/game.py"] + package["tests/test_connect4.py"]
    blocks = re.findall(r"^```python\n(.*?)^```", AUTHORING.read_text("utf-8"), re.M | re.S)
    assert len(blocks) >= 6
    for block in blocks:
        assert block in sources, block
