"""``gamut check-game``: the conformance kit run against an installed game, as its author
would run it; a game that breaks the contract is named with what broke."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def check_game(*args: str, path: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``gamut check-game`` with ``path`` before the import path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [path, env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "gamut_client.cli", "check-game", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=240, env=env)


def test_the_hex_plugin_conforms() -> None:
    result = check_game("hex", "--playouts", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().startswith("hex: conforms (")


BROKEN = '''
from gamut_hex.game import HexGame


class SloppyHex(HexGame):
    """Hex whose moves write themselves in capitals it cannot read back."""

    name = "sloppy"
    perft_counts = (25, 601)

    def format_move(self, move):
        return super().format_move(move).upper() + "!"
'''


def test_a_broken_game_is_named_with_what_broke(tmp_path: Path) -> None:
    (tmp_path / "sloppy.py").write_text(BROKEN)
    info = tmp_path / "sloppy-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sloppy\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[gamut.games]\nsloppy = sloppy:SloppyHex\n")
    result = check_game("sloppy", "--playouts", "1", path=str(tmp_path))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert "FAIL sloppy-perft_counts: perft 2 is 600, declared 601" in lines
    unread = "FAIL sloppy-moves_round_trip-0: InvalidMoveError"
    assert any(line.startswith(unread) for line in lines)
    assert lines[-1].startswith("sloppy: fails ")


def test_a_game_not_installed_is_refused_in_words() -> None:
    result = check_game("chess")
    assert result.returncode != 0
    assert "no game 'chess' is installed" in result.stderr
