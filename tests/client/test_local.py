"""``gamut local``: the 2015 Network console game, driven through piped standard input."""

from __future__ import annotations

import subprocess
import sys

from gamut_client.commands.local import HUMAN_PROMPT, announce
from gamut_engine import Outcome, load_game

SEED_001_SAMPLE = ["A 4", "D 3", "B 5", "D 1", "A 6", "B 7", "B 1", "G 2", "A 3", "B 4"]
SEED_001_SAMPLE += ["D 2", "E 8", "H 6"]


def run_local(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """Run ``gamut local`` as a person at a console would, with ``stdin`` typed in."""
    command = [sys.executable, "-m", "gamut_client.cli", "local", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120)


def test_seed_001_sample_game_with_two_people() -> None:
    result = run_local("network", "--rules", "2015", stdin="2\n" + "\n".join(SEED_001_SAMPLE))
    assert result.returncode == 0
    out = result.stdout
    assert out.startswith(HUMAN_PROMPT)
    assert "Player 1: Bad move!\nPosition would form clump" in out
    assert "Player 2: Bad move!\nPosition in opponent goal" in out
    assert "H:. . . . . 1 . .\nPlayer 1 wins! A4 B5 B7 G2 D2 H6\n" in out
    assert out.rstrip().endswith("\nPlayer 1 completes a network.")
    assert out.count("wins!") == 1


def test_the_question_is_asked_again_until_answered() -> None:
    result = run_local("connect5", "--size", "5", "--computer", "random", stdin="3\nx\n0\n")
    assert result.returncode == 0
    assert result.stdout.count(HUMAN_PROMPT) == 3
    assert "Please answer 0, 1 or 2." in result.stdout
    assert "wins" in result.stdout or "a draw." in result.stdout


def test_one_person_against_the_computer_and_input_running_out() -> None:
    result = run_local(
        "loa", "--size", "5", "--humans", "1", "--computer", "random", stdin="b1-b3\n"
    )
    assert result.returncode == 1
    assert "Black: Enter your move: " in result.stdout
    assert "White plays " in result.stdout


def test_endings_are_announced_in_words() -> None:
    crusher = load_game("crusher", n=3)
    assert announce(crusher, Outcome(0, "no_moves")) == "Black cannot move: White wins."
    draw = "The game reached its move limit: a draw."
    assert announce(crusher, Outcome(None, "move_cap")) == draw
    connect5 = load_game("connect5", size=7)
    assert announce(connect5, Outcome(None, "board_full")) == "The board is full: a draw."
    loa = load_game("loa", size=5)
    connected = "White wins! a2 b3\nWhite connects all their pieces."
    assert announce(loa, Outcome(1, "connected", ("a2", "b3"))) == connected
