"""The commands ``gamut match``, ``gamut move connect5`` and ``gamut crusher``, run for real.

Each runs as a subprocess through ``gamut`` where the command is registered, and
otherwise through its module (``python -m gamut_client.commands.NAME``), which runs the
same parser and handler.
"""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from gamut_client.bots.offline import match_player
from gamut_client.commands import match as match_command
from gamut_client.commands.standalone import run_alone
from gamut_engine.games.crusher import CrusherGame
from gamut_engine.games.crusher_board import board_from_text

SEED_BOARD = """(list (list '- '- '- '- '-)
      (list 'X 'X 'X 'X '-)
      (list '- 'O 'O 'O 'O)
      (list '- '- '- '- '-)
      (list '- '- '- '- '-))
"""
SEED_HISTORY = "((w w w nil w w nil nil nil nil nil nil nil b b nil b b b))\n"


def command(name: str, *args: str) -> list[str]:
    """The command line that runs ``gamut NAME ARGS``."""
    registered = {entry.name for entry in entry_points(group="gamut.commands")}
    if name in registered:
        return [sys.executable, "-m", "gamut_client.cli", name, *args]
    return [sys.executable, "-m", f"gamut_client.commands.{name}", *args]


def run(name: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command(name, *args), input=stdin, capture_output=True, text=True, timeout=120
    )


# --- gamut move connect5 -------------------------------------------------------------------


def test_move_connect5_seed_example_prints_4_1() -> None:
    done = run("move", "connect5", stdin=SEED_BOARD)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(4 1)"


def test_move_connect5_reads_plain_rows_and_blocks() -> None:
    board = "-----\nXXX--\n-OOOO\nX----\n-----\n"
    done = run("move", "connect5", "--depth", "2", "--stats", stdin=board)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(0 2)"
    assert "Nodes generated" in done.stderr


def test_move_connect5_refuses_a_bad_board() -> None:
    done = run("move", "connect5", stdin="XXX\n---\n")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "gamut move:" in done.stderr


# --- gamut crusher -------------------------------------------------------------------------


def next_boards(game: CrusherGame, text: str, side: str) -> set[tuple[int | None, ...]]:
    state = game.state_from_history([text], side)
    return {game.board(game.play(state, move)) for move in game.legal_moves(state)}


@pytest.mark.parametrize("trace", [False, True])
def test_crusher_seed_call(trace: bool) -> None:
    args = ["w", "2", "--n", "3", *(["--trace"] if trace else [])]
    done = run("crusher", *args, stdin=SEED_HISTORY)
    assert done.returncode == 0, done.stderr
    answer = done.stdout.strip()
    assert answer.startswith("(")
    assert answer.endswith(")")
    assert "\n" not in answer, "standard output holds only the board"
    game = CrusherGame(n=3)
    start = "(w w w nil w w nil nil nil nil nil nil nil b b nil b b b)"
    assert board_from_text(answer, 3) in next_boards(game, start, "w")
    if trace:
        assert "depth 2 best" in done.stderr
        assert "WWW-WW-------BB-BBB w 0" in done.stderr
    else:
        assert done.stderr == ""


def test_crusher_board_per_line_and_n_from_the_board() -> None:
    history = "WWW-WW-------BB-BBB\n"
    done = run("crusher", "b", "1", stdin=f"{'-WW-WW---W---BB-BBB'}\n{history}")
    assert done.returncode == 0, done.stderr
    answer = done.stdout.strip()
    assert re.fullmatch(r"[WB-]{19}", answer)
    assert board_from_text(answer, 3) in next_boards(CrusherGame(n=3), "-WW-WW---W---BB-BBB", "b")


def test_crusher_refuses_a_bad_history() -> None:
    done = run("crusher", "w", "2", stdin="WWW-WW\n")
    assert done.returncode == 2
    assert "gamut crusher:" in done.stderr


# --- gamut match ---------------------------------------------------------------------------


def test_match_runs_four_games() -> None:
    done = run("match", "crusher", "ai:depth=2", "random", "-n", "4", "--n", "3", "--seed", "1")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "A = ai:depth=2, B = random; 4 games" in out
    counts = re.search(r"A: (\d+) wins?, (\d+) draws?, (\d+) loss(?:es)?", out)
    assert counts is not None, out
    assert sum(int(number) for number in counts.groups()) == 4
    assert re.search(r"95% CI [\d.]+% to [\d.]+%, Wilson", out)
    assert re.search(r"^A +ai:depth=2 +\d+ +[\d.]+ s +2\.00 ", out, re.MULTILINE)
    assert re.search(r"^B +random +\d+ +[\d.]+ s +- +- *$", out, re.MULTILINE)
    progress = [line for line in done.stderr.splitlines() if line.startswith("game ")]
    assert [line.split(":")[0] for line in progress] == [f"game {i}/4" for i in (1, 2, 3, 4)]


def test_match_quiet_with_workers(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["loa", "ai:depth=1", "ai:depth=1", "-n", "2", "--size", "5", "-q", "-j", "2"]
    assert run_alone("match", match_command.register, args) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "A: 1 win, 0 draws, 1 loss" in out, "the same player wins with the same colour"
    assert "2 worker processes" in out


def test_match_plays_from_an_openings_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("# two openings\nd5 e4\nb2 c3 d4\n")
    args = ["connect5", "--size", "9", "ai:depth=1", "random", "-n", "4", "--seed", "2"]
    assert run_alone("match", match_command.register, [*args, "--openings", str(openings)]) == 0
    out = capsys.readouterr().out
    assert "2 written openings" in out
    assert sum(match_counts(out)) == 4


def test_match_refuses_a_bad_openings_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("d5 e4\nd5 d5\n")
    args = ["connect5", "--size", "9", "random", "random", "--openings", str(openings)]
    assert run_alone("match", match_command.register, args) == 2
    assert "opening 2" in capsys.readouterr().err


def test_move_time_holds_the_ai_unless_its_spec_sets_its_own_search() -> None:
    def spec(player: object) -> object:
        return getattr(player, "spec", None)

    assert spec(match_player("ai:8", 1, move_seconds=0.5)) == "ai:8,time=0.5"
    assert spec(match_player("ai:8,budget=5", 1, move_seconds=0.5)) == "ai:8,budget=5"
    assert spec(match_player("ai:depth=2", 1, move_seconds=0.5)) == "ai:depth=2"
    assert spec(match_player("ai:8", 1)) == "ai:8"


def test_match_refuses_a_bad_player(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_alone("match", match_command.register, ["network", "ai:99", "random"]) == 2
    assert "levels go from 1 to 8" in capsys.readouterr().err


ENGINES = Path(__file__).parent / "engines"
"""Small programs speaking the bridges' protocols."""


def program(name: str) -> str:
    """The command line running the test program ``name``."""
    return f"{sys.executable} {ENGINES / name}"


def match_counts(out: str) -> tuple[int, int, int]:
    """A's wins, draws and losses from a match summary."""
    counts = re.search(r"A: (\d+) wins?, (\d+) draws?, (\d+) loss(?:es)?", out)
    assert counts is not None, out
    wins, draws, losses = (int(number) for number in counts.groups())
    return wins, draws, losses


@pytest.mark.parametrize(
    ("spec", "game"),
    [
        (f"gomocup:{program('pbrain_first.py')}", ["connect5", "--size", "9"]),
        (f"seed5:{program('seed_program.py')}", ["connect5", "--size", "9"]),
        (f"line:{program('line_first.py')}", ["crusher", "--n", "3"]),
    ],
)
def test_match_plays_programs_behind_every_bridge(
    spec: str, game: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    args = [*game, spec, "ai:depth=2", "-n", "2", "--seed", "3", "--opening", "2", "-q"]
    assert run_alone("match", match_command.register, args) == 0
    out = capsys.readouterr().out
    wins, draws, losses = match_counts(out)
    assert wins + draws + losses == 2
    assert "illegal" not in out, "the program's moves were all legal"


def test_match_tells_a_gomocup_engine_every_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "pbrain.log"
    monkeypatch.setenv("PBRAIN_LOG", str(log))
    spec = f"gomocup:{program('pbrain_first.py')}"
    args = ["connect5", "--size", "9", spec, "random", "-n", "1", "--opening", "3", "-q"]
    assert run_alone("match", match_command.register, args) == 0
    lines = log.read_text().splitlines()
    assert lines[0] == "START 9"
    # Three opening moves and the random player's reply (A plays X, the first side), then
    # the engine's first turn: the whole board in one BOARD.
    board = lines[lines.index("BOARD") + 1 : lines.index("DONE")]
    assert len(board) == 4
    assert any(line.startswith("TURN ") for line in lines), "later moves come one at a time"
    assert lines[-1] == "END"
