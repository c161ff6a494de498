"""A new game package from a template: what ``gamut new-game NAME`` writes.

The package is a complete, playable gravity game (Connect Four's rules, with the board's
size and the winning run as options) that an author changes into their own game: its
``pyproject.toml`` registers it in the ``gamut.games`` entry-point group, and its tests
run the conformance kit (:mod:`gamut_engine.testing`) over every variant.
"""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path
from string import Template
from typing import Final

from gamut_engine.registry import NAME

FILES: Final = {
    "pyproject.toml": "pyproject.toml.tmpl",
    "README.md": "README.md.tmpl",
    "{package}/__init__.py": "__init__.py.tmpl",
    "{package}/game.py": "game.py.tmpl",
    "tests/test_{name}.py": "test_game.py.tmpl",
}
"""Each file of the new package, by its path there, and the template it comes from."""


def class_name(name: str) -> str:
    """The game class's name for a registry name: ``connect4`` gives ``Connect4Game``."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_")) + "Game"


def render(name: str, title: str | None = None) -> dict[str, str]:
    """The new package's files by relative path, for the game called ``name``.

    Raises ``ValueError`` with a sentence for a name the registry would refuse.
    """
    if not NAME.fullmatch(name):
        raise ValueError(
            f"{name!r} cannot name a game: use lower-case letters, digits and '_', "
            "starting with a letter, at most 32 characters"
        )
    title = title or name.replace("_", " ").title()
    if not re.fullmatch(r"[^\x00-\x1f\"\\$]{1,40}", title):
        raise ValueError(f"{title!r} cannot be a title: at most 40 characters, no quotes or $")
    words = {"name": name, "title": title, "package": f"gamut_{name}", "Class": class_name(name)}
    source = files(__package__)
    return {
        path.format(**words): Template((source / template).read_text("utf-8")).substitute(words)
        for path, template in FILES.items()
    }


def write_package(folder: Path, name: str, title: str | None = None) -> list[Path]:
    """Write the new package into ``folder`` (created; it must not hold files already)."""
    if folder.exists() and any(folder.iterdir()):
        raise ValueError(f"{folder} is not empty; choose a new folder")
    written = []
    for relative, text in render(name, title).items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
