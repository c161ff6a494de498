"""Two people play each other in real terminals while a third watches and chats.

``gamut serve`` and three ``gamut play`` clients run as real programs, each client in its
own tmux terminal. Ada opens a seek, Bob accepts it from the lobby's seek table, they play
with the keyboard and with typed moves and chat; Cyd watches from the lobby's rooms table
and sees the moves and the chat; Ada resigns and all three see the result.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.client.processes import serve
from tests.client.tmux import Terminals, play_as_guest, showing, terminals

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("tmux") is None,
        reason="tmux is not installed (apt-get install tmux) so the terminal test cannot run",
    ),
]

PEOPLE = ("ada", "bob", "cyd")


@pytest.fixture(name="terminals")
def terminals_fixture(tmp_path: Path) -> Iterator[Terminals]:
    """A server and a ``gamut play`` terminal for each of ada, bob and cyd, in the lobby."""
    with serve(tmp_path, ai_workers=0) as url, terminals("people") as terms:
        for name in PEOPLE:
            play_as_guest(terms, name, url)
        for name in PEOPLE:
            terms.wait_for(name, showing(f"connected as {name}"), "the lobby")
        yield terms


def say_in_the_chat(terms: Terminals, name: str, line: str) -> None:
    """Reach the chat line with ctrl+l, as the footer says, and type ``line`` there at once
    (the chat line is inside the chat pane's border, the move field is not)."""
    terms.keys(name, "C-l")
    terms.type(name, line)
    terms.wait_for(name, showing(f"│▊  {line}"), f"{line!r} typed in the chat line")


def moves_in(screen: str) -> list[str]:
    """The moves the move list shows (rows such as ``│  1. 34  03   │``)."""
    moves: list[str] = []
    for found in re.finditer(r"│\s+\d+\. (\w+)(?:  (\w+))?(?=\s|$)", screen, re.MULTILINE):
        moves += [move for move in found.groups() if move]
    return moves


def test_two_people_play_while_a_third_watches_and_chats(terminals: Terminals) -> None:
    terms = terminals
    terms.keys("ada", "C-n")
    terms.wait_for("ada", lambda s: "New game" in s and "anyone" in s, "the new-game form")
    terms.keys("ada", "C-s")
    terms.wait_for("bob", lambda s: "ada" in s and "Network" in s, "ada's seek")
    # Bob goes from the rooms table to the seeks table and accepts the only seek.
    terms.keys("bob", "Tab")
    terms.keys("bob", "Enter")
    first = {}
    for name in ("ada", "bob"):
        shown = terms.wait_for(name, lambda s: "Your move" in s or "to move" in s, "the game")
        first[name] = "Your move" in shown
    assert sorted(first.values()) == [False, True]
    mover, other = ("ada", "bob") if first["ada"] else ("bob", "ada")

    # Cyd watches the game from the rooms table.
    terms.wait_for("cyd", lambda s: "playing" in s and "ada" in s, "the game in the lobby")
    terms.keys("cyd", "Enter")
    terms.wait_for("cyd", lambda s: "you are watching" in s, "the game, watching")

    # The first move with the keyboard (the cursor starts on 34), the answer typed.
    terms.keys(mover, "Enter")
    terms.wait_for(other, lambda s: moves_in(s) == ["34"], "the first move")
    terms.wait_for(other, lambda s: "Your move" in s, "its turn")
    terms.keys(other, "Tab")
    terms.wait_for(other, lambda s: "⏎ Choose cell" not in s, "the focus on the move line")
    terms.type(other, "43")
    terms.keys(other, "Enter")
    terms.wait_for(mover, lambda s: moves_in(s) == ["34", "43"], "the answer")
    # One step left of 34 with the keyboard, then a second typed answer.
    terms.keys(mover, "Left", "Enter")
    terms.wait_for(other, lambda s: moves_in(s) == ["34", "43", "24"], "the third move")
    terms.type(other, "53")
    terms.keys(other, "Enter")
    played = ["34", "43", "24", "53"]
    for name in PEOPLE:
        terms.wait_for(name, lambda s: moves_in(s) == played, "four moves")

    # A chat line from the second player and one from the spectator, each reaching the
    # chat line with ctrl+l (typing on the board would start a move instead).
    for name, line in ((other, "good luck"), ("cyd", "nice opening")):
        say_in_the_chat(terms, name, line)
        terms.keys(name, "Enter")
    for name in PEOPLE:
        for line in (f"{other}: good luck", "cyd: nice opening"):
            terms.wait_for(name, showing(line), f"the chat line {line!r}")

    terms.keys("ada", "C-r")
    terms.wait_for("ada", lambda s: "Resign this game?" in s, "the question")
    terms.keys("ada", "y")
    terms.wait_for("ada", lambda s: "You lost" in s, "ada's defeat")
    terms.wait_for("bob", lambda s: "You won" in s, "bob's win")
    terms.wait_for("cyd", lambda s: "bob won" in s, "bob's win, as the watcher reads it")
    shown = terms.wait_for("cyd", lambda s: "resign" in s.lower(), "the result")
    assert moves_in(shown) == played
