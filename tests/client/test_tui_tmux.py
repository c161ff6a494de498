"""``gamut play`` in a real terminal, as a person uses it: tmux types the keys and reads the screen.

A ``gamut serve`` process (with one AI worker) and the client run as real programs;
tmux (on a private socket) sends key presses and captures what the terminal shows. The
person opens a game against the AI, places a chip with the keyboard, types moves on the
board (one refused with its reason, one played) and goes on with the arrows at once,
resigns, and quits; in an 80×24 terminal every pane is laid out whole.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.client.processes import serve
from tests.client.tmux import HEIGHT, WAIT, WIDTH, Terminals, play_as_guest, terminals

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("tmux") is None,
        reason="tmux is not installed (apt-get install tmux) so the terminal test cannot run",
    ),
]

BOARD_KEYS = "⏎ Choose cell"
"""What the footer shows while the board has the keys."""


@pytest.fixture
def server_url(tmp_path: Path) -> Iterator[str]:
    """A ``gamut serve`` process with one AI worker; its WebSocket URL."""
    with serve(tmp_path, ai_workers=1) as url:
        yield url


@pytest.fixture(name="terminals")
def terminals_fixture() -> Iterator[Terminals]:
    """A tmux server of the test's own."""
    with terminals("test") as terms:
        yield terms


def play(terms: Terminals, url: str, width: int = WIDTH, height: int = HEIGHT) -> None:
    """``gamut play`` as ada in a ``width`` × ``height`` terminal named ``ada``."""
    play_as_guest(terms, "ada", url, width, height)


def start_ai_game(terms: Terminals) -> str:
    """From the lobby, a Network game against the AI; the screen once the board has the keys."""
    terms.wait_for("ada", lambda s: "Gamut lobby" in s and "connected as ada" in s, "the lobby")
    terms.keys("ada", "C-g")
    terms.wait_for("ada", lambda s: "New game" in s and "the server's AI" in s, "the form")
    terms.keys("ada", "C-s")
    return terms.wait_for(
        "ada", lambda s: "Your move" in s and BOARD_KEYS in s, "the game, the board ready for keys"
    )


def board_row(screen: str, label: str) -> str:
    """The board's row ``label`` from its first cell's glyph on: column ``c``'s glyph is at ``3c``
    (Network's rows are labelled 0-7 on both sides)."""
    for line in screen.splitlines():
        found = re.match(rf"^[\s│]*{label}  (.*) {label}\s", line)
        if found:
            return found.group(1)
    raise AssertionError(f"no board row {label} on screen:\n{screen}")


def free(screen: str, cell: str) -> bool:
    """Whether Network's ``cell`` (column then row) is empty on the screen's board."""
    return board_row(screen, cell[1])[3 * int(cell[0])] == "·"


def moves_in(screen: str) -> list[str]:
    """The moves the move list shows (rows such as ``│  1. 34  03   │``)."""
    moves: list[str] = []
    for found in re.finditer(r"│\s+\d+\. (\w+)(?:  (\w+))?(?=\s|$)", screen, re.MULTILINE):
        moves += [move for move in found.groups() if move]
    return moves


def test_a_person_plays_the_ai_in_a_real_terminal(terminals: Terminals, server_url: str) -> None:
    terms = terminals
    play(terms, server_url)
    assert terms.size("ada").strip() == f"{WIDTH}x{HEIGHT}"
    shown = start_ai_game(terms)
    assert "Network" in shown
    assert "ai-3 [AI]" in shown

    # The cursor starts on 34; if the AI took it, step left to 24 first.
    before = moves_in(shown)
    mine = "34" if board_row(shown, "4")[9] == "·" else "24"
    if mine == "24":
        terms.keys("ada", "Left")
    terms.keys("ada", "Enter")
    shown = terms.wait_for("ada", lambda s: len(moves_in(s)) == len(before) + 2, "the answer")
    assert moves_in(shown)[len(before)] == mine
    assert f"ai-3 played {moves_in(shown)[-1]}" in shown

    # Digits typed while the board has the focus are a typed move, never the cursor's
    # cell: the typed move is the one played, and a refused one plays nothing.
    assert BOARD_KEYS in shown
    typed = next(cell for cell in ("61", "16", "65", "12") if free(shown, cell))
    terms.type("ada", typed)
    terms.keys("ada", "Enter")
    shown = terms.wait_for("ada", lambda s: len(moves_in(s)) == len(before) + 4, "the next one")
    assert moves_in(shown)[len(before) + 2] == typed
    terms.type("ada", "00")
    terms.keys("ada", "Enter")
    shown = terms.wait_for("ada", lambda s: "00 is a corner" in s, "the reason for refusing 00")
    assert len(moves_in(shown)) == len(before) + 4

    # Once a typed move is sent the board has the keys again: the arrows move the cursor.
    terms.wait_for("ada", lambda s: BOARD_KEYS in s, "the focus back on the board")
    cursor = re.search(r"cursor (\d\d)", shown)
    assert cursor is not None
    terms.keys("ada", "Left")
    left = f"{int(cursor.group(1)[0]) - 1}{cursor.group(1)[1]}"
    terms.wait_for("ada", lambda s: f"cursor {left}" in s, "the cursor one step left")

    terms.keys("ada", "C-r")
    terms.wait_for("ada", lambda s: "Resign this game?" in s, "the question")
    terms.keys("ada", "y")
    shown = terms.wait_for("ada", lambda s: "Game over" in s, "the end of the game")
    assert "You lost" in shown

    terms.keys("ada", "Escape")  # the board has the keys: Esc goes to the lobby
    terms.wait_for("ada", lambda s: "Games being played" in s, "the lobby again")
    terms.keys("ada", "C-q")
    deadline = time.monotonic() + WAIT
    while terms.alive("ada") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not terms.alive("ada")


def side_panels_whole(screen: str, width: int) -> bool:
    """Whether the side panels' right border is the terminal's last column, top to bottom
    (between the status line and the footer)."""
    body = [line for line in screen.splitlines()[1:-1] if line.strip()]
    return all(len(line) == width and line[-1] in "╮│╯" for line in body)


def test_every_pane_is_laid_out_whole_in_an_80_by_24_terminal(
    terminals: Terminals, server_url: str
) -> None:
    terms = terminals
    play(terms, server_url, 80, 24)
    shown = start_ai_game(terms)
    assert side_panels_whole(shown, 80), shown
    for text in ("ai-3 [AI]", "ada (you)", "Moves", "Room chat", "say something"):
        assert text in shown, text
    # The whole board (each row with its label on both sides), and the move field.
    assert [len(board_row(shown, label)) for label in "01234567"] == [23] * 8
    assert "type a move" in shown
    before = moves_in(shown)
    typed = next(cell for cell in ("16", "61", "65", "12") if free(shown, cell))
    terms.type("ada", typed)
    terms.keys("ada", "Enter")
    shown = terms.wait_for("ada", lambda s: len(moves_in(s)) == len(before) + 2, "the answer")
    assert moves_in(shown)[len(before)] == typed
    assert side_panels_whole(shown, 80), shown
