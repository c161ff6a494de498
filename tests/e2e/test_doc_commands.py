"""The command examples of README.md and docs/ work as written.

Every command in a ``sh`` block (and every line starting ``$ `` in any block) is read.
Each ``gamut`` command must be one the real ``gamut`` command line accepts, each
``make`` target (and each variable set, ``PORT=9000``) must exist and each ``python
FILE`` must name a file. The bots and the
ladder of the README and docs/bots.md then run as written against a real ``gamut
serve``, from a folder holding the files the docs tell a reader to save: each must stop
by itself with a line per game, or, for a ladder bot, join its pool and leave it on
Ctrl+C.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gamut_client.cli import build_parser
from tests.e2e.served import Served, serve

pytestmark = pytest.mark.timeout(280)

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md")))
BIN = Path(sys.executable).parent
DOC_SERVER = "ws://localhost:8080/ws"
"""The server the docs' examples name, replaced by the test's own."""
PLACEHOLDERS = ("/path/to/", "racket ", "games.example", "SPEC", "POOL")
"""Words that mark an example as a pattern to adapt rather than a command to run."""
GAME_LINE = re.compile(r"^\S+ .+: (?:won|lost|drawn) \(\w+\) as \S+ in \d+ moves$", re.M)
"""The line a bot prints for each game."""


@dataclass(frozen=True)
class Example:
    """One command line of a page."""

    page: Path
    line: str

    @property
    def words(self) -> list[str]:
        """The words of the command (the last of a pipeline), without comments or
        redirections."""
        words = shlex.split(self.line, comments=True)
        if "|" in words:
            words = words[len(words) - words[::-1].index("|") :]
        ends = [index for index, word in enumerate(words) if re.match(r"\d*[<>]", word)]
        return words[: ends[0]] if ends else words

    @property
    def program(self) -> str:
        """``gamut``, ``make``, ``python``… (a ``.venv/bin/`` prefix dropped)."""
        return self.words[0].removeprefix(".venv/bin/")

    @property
    def runnable(self) -> bool:
        """Whether it can run as written (no placeholder to fill in)."""
        return not any(word in self.line for word in PLACEHOLDERS)

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT)}: {self.line}"


def blocks(page: Path) -> list[tuple[str, str]]:
    """The fenced blocks of ``page``: info string and text."""
    found = re.findall(r"^```([^\n]*)\n(.*?)^```", page.read_text(encoding="utf-8"), re.M | re.S)
    return [(info.strip(), text) for info, text in found]


def block_commands(info: str, text: str) -> list[str]:
    """The commands of one block, continuation lines joined and here-documents skipped."""
    commands: list[str] = []
    heredoc: str | None = None
    lines = text.replace("\\\n", " ").splitlines()
    # A block of commands and their output marks each command with ``$ ``.
    every_line = info == "sh" and not any(line.startswith("$ ") for line in lines)
    for line in lines:
        if heredoc is not None:
            heredoc = None if line.strip() == heredoc else heredoc
            continue
        if line.startswith("$ ") or (every_line and line.strip()):
            command = line.removeprefix("$ ").strip()
            commands.append(command)
            marker = re.search(r"<<'?(\w+)'?", command)
            heredoc = marker.group(1) if marker else None
    return commands


def examples() -> list[Example]:
    """Every command example of the README and docs/."""
    return [
        Example(page, command)
        for page in DOCS
        for info, text in blocks(page)
        for command in block_commands(info, text)
    ]


def test_the_docs_have_command_examples() -> None:
    programs = {example.program for example in examples()}
    assert {"gamut", "make"} <= programs
    assert sum(example.program == "gamut" for example in examples()) >= 15


@pytest.mark.parametrize("example", examples(), ids=str)
def test_every_command_example_is_one_the_project_accepts(example: Example) -> None:
    words = example.words
    if example.program == "gamut":
        try:
            build_parser().parse_args(words[1:])
        except SystemExit as refusal:
            pytest.fail(f"gamut refuses {example} (status {refusal.code})")
    elif example.program == "make":
        makefile = (ROOT / "Makefile").read_text()
        targets = re.findall(r"^([\w.-]+):", makefile, re.M)
        variables = re.findall(r"^(\w+) \?=", makefile, re.M)
        assigned = [word.partition("=")[0] for word in words[1:] if "=" in word]
        assert set(assigned) <= set(variables), example
        assert {word for word in words[1:] if "=" not in word} <= set(targets), example
    elif example.program in ("python", "python3"):
        assert (ROOT / words[1]).is_file() or saved_by_the_docs(words[1]), example
    elif example.program in ("cd", "pip", "pytest"):
        # A game author's steps in their own package: tests/e2e/test_authoring.py runs them.
        assert example.page.name == "authoring.md", example
    else:
        pytest.fail(f"an example with an unknown program: {example}")


def saved_by_the_docs(name: str) -> bool:
    """Whether a page tells the reader to save a file called ``name``."""
    return any(f"save this as `{name}`" in page.read_text(encoding="utf-8") for page in DOCS)


def live_examples(*pages: str) -> list[Example]:
    """The runnable ``gamut bot`` and ``gamut ladder`` examples of ``pages``, in order."""
    return [
        example
        for example in examples()
        if example.page.name in pages
        and example.program == "gamut"
        and example.words[1] in ("bot", "ladder")
        and example.runnable
    ]


def save_the_docs_files(folder: Path, server: str) -> None:
    """The files the docs tell a reader to save, pointed at ``server``."""
    readme = dict(blocks(ROOT / "README.md"))
    (folder / "mybot.py").write_text(readme["python"])
    bots = dict(blocks(ROOT / "docs" / "bots.md"))
    (folder / "greedy.py").write_text(bots["python bot-example"].replace(DOC_SERVER, server))
    (folder / "firstmove.py").write_text(bots["python line-example"])


class Reader:
    """A reader of the docs at a terminal in ``folder``, with a server running."""

    def __init__(self, folder: Path, served: Served) -> None:
        self.folder = folder
        self.served = served
        self.token: str | None = None
        self.env = {
            **os.environ,
            "GAMUT_SERVER": served.ws_url,
            "PATH": f"{BIN}:{os.environ['PATH']}",
        }

    def argv(self, example: Example) -> list[str]:
        """The command as typed, with this server and the token the reader was given."""
        words = [word.replace(DOC_SERVER, self.served.ws_url) for word in example.words]
        words = [self.token if word == "TOKEN" and self.token else word for word in words]
        return [str(BIN / "gamut"), *words[1:]]

    def run(self, example: Example) -> str:
        """Run a command that stops by itself; its output."""
        done = subprocess.run(
            self.argv(example),
            cwd=self.folder,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=240,
        )
        assert done.returncode == 0, f"{example}\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def run_until_stopped(self, example: Example, pool: str) -> None:
        """Run a ladder bot until it is a member of ``pool``, then press Ctrl+C."""
        process = subprocess.Popen(
            self.argv(example),
            cwd=self.folder,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            wait_for(lambda: members(self.served, pool) == 1, f"{example} in its pool")
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
        assert process.returncode == 0, f"{example}\n{err}"
        wait_for(lambda: members(self.served, pool) == 0, f"{example} out of its pool")


def members(served: Served, pool: str) -> int:
    """How many members ``pool`` lists."""
    with urllib.request.urlopen(served.http_url + "/api/ladder/pools", timeout=30) as answer:
        pools: list[dict[str, Any]] = json.loads(answer.read())
    return next(int(entry["members"]) for entry in pools if entry["pool"] == pool)


def wait_for(check: Any, what: str) -> None:
    """Poll ``check()`` until it holds (bounded by the test's time limit)."""
    while not check():
        time.sleep(0.2)


@pytest.mark.slow
def test_the_bots_and_the_ladder_of_the_docs_run_as_written(tmp_path: Path) -> None:
    with serve(tmp_path / "gamut.sqlite3", "--ai-workers", "1") as served:
        save_the_docs_files(tmp_path, served.ws_url)
        reader = Reader(tmp_path, served)
        ran = []
        for example in live_examples("README.md", "bots.md"):
            words = example.words
            if words[1:3] == ["ladder", "register"]:
                out = reader.run(example)
                reader.token = re.search(r"^\s+(\S+)\s*$", out, re.M).group(1)  # type: ignore[union-attr]
            elif "--ladder" in words:
                reader.run_until_stopped(example, words[words.index("--ladder") + 1])
            elif words[1] == "bot":
                out = reader.run(example)
                games = int(words[words.index("--games") + 1])
                assert len(GAME_LINE.findall(out)) == games, f"{example}\n{out}"
            else:
                assert reader.run(example).startswith(words[-1])
            ran.append(example)
        assert len(ran) >= 6
