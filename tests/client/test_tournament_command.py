"""``gamut tournament``, run for real: the crosstable, and a stopped tournament resumed."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from gamut_client.commands import tournament as tournament_command
from gamut_client.commands.standalone import run_alone
from tests.client.processes import REPO
from tests.client.test_commands import command, run

PLAYERS = ("random", "ai:1", "ai:2")


def game_lines(path: Path) -> list[dict[str, object]]:
    """The finished games of a results file (every whole line after the header)."""
    text = path.read_text()
    lines = text[: text.rfind("\n") + 1].splitlines()
    return [json.loads(line) for line in lines[1:]]


def test_a_round_robin_finishes_with_a_crosstable(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    args = ("connect5", "-o", "size=9", *PLAYERS, "--rounds", "2", "--results", str(results))
    done = run("tournament", *args)
    assert done.returncode == 0, done.stderr
    assert "Crosstable after 12 of 12 games" in done.stdout
    rows = {line.split()[1]: line.split() for line in done.stdout.splitlines()[4:7]}
    assert set(rows) == set(PLAYERS)
    assert sum(float(row[2].split("/")[0]) for row in rows.values()) == 12
    assert all(row[2].endswith("/8") for row in rows.values())
    assert re.search(r"random - ai:1: [\d.]+/4, [+-]\d+ \(95% [+-]\d+ to [+-]\d+\)", done.stdout)
    games = game_lines(results)
    assert len(games) == 12
    assert len({game["game"] for game in games}) == 12
    points = dict.fromkeys(PLAYERS, 0.0)
    for game in games:
        winner = game["winner"]
        for index in (game["a"], game["b"]):
            assert isinstance(index, int)
            points[PLAYERS[index]] += 0.5 if winner is None else float(winner == index)
    assert all(rows[spec][2] == f"{points[spec]:g}/8" for spec in PLAYERS)


def test_a_stopped_tournament_resumes_where_it_stopped(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    players = ("random", "ai:depth=1", "ai:depth=2")
    args = ["connect5", "-o", "size=9", *players, "--rounds", "6", "--seed", "4", "-j", "2"]
    args += ["--results", str(results)]
    process = subprocess.Popen(
        command("tournament", *args), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        while process.poll() is None and (not results.exists() or len(game_lines(results)) < 3):
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=60)
    before = game_lines(results)
    if process.returncode == 0:
        pytest.skip("the tournament finished before it could be stopped")
    assert 3 <= len(before) < 36
    with results.open("a") as handle:
        handle.write('{"game": "r5-1-2-1", "rou')  # a line cut off as it was written
    done = run("tournament", *args)
    assert done.returncode == 0, done.stderr
    assert "already played, resumed" in done.stdout
    assert len(re.findall(r"^game \d+/36", done.stderr, re.MULTILINE)) == 36 - len(before)
    after = game_lines(results)
    assert after[: len(before)] == before
    keys = [str(game["game"]) for game in after]
    assert len(set(keys)) == len(keys)
    assert len(after) == 36
    assert "Crosstable after 36 of 36 games" in done.stdout


def test_results_of_another_tournament_are_not_mixed_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "results.jsonl"
    args = ["connect5", "--size", "9", "random", "ai:depth=1", "--results", str(results)]
    assert run_alone("tournament", tournament_command.register, [*args, "--seed", "1"]) == 0
    assert run_alone("tournament", tournament_command.register, [*args, "--rounds", "2"]) == 2
    assert "another tournament" in capsys.readouterr().err
    assert len(game_lines(results)) == 2


def test_bad_players_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = str(tmp_path / "r.jsonl")
    args = ["network", "random", "--results", results]
    assert run_alone("tournament", tournament_command.register, args) == 2
    assert "at least two players" in capsys.readouterr().err
    args = ["network", "random", "ai:99", "--results", results]
    assert run_alone("tournament", tournament_command.register, args) == 2
    assert not Path(results).exists()
