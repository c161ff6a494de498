"""``gamut analyse`` against a real ``gamut serve``: it waits for the analysis, showing its
progress, then prints the annotated move list; a refusal is said in a sentence."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamut_server.storage import Store
from tests.e2e.served import Served, serve
from tests.server.analysis_games import BLUNDER_GAME, store_game

pytestmark = pytest.mark.timeout(300)


def analyse(served: Served, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run ``gamut analyse`` against ``served``."""
    command = [sys.executable, "-m", "gamut_client.cli", "analyse", "--server", served.ws_url]
    return subprocess.run(
        [*command, *arguments], capture_output=True, text=True, timeout=240, check=False
    )


async def stored(database: Path, moves: list[str], *, finished: bool = True) -> str:
    """A game between ada and bob stored in ``database``; its id."""
    async with await Store.open(str(database)) as store:
        if finished:
            return await store_game(store, moves)
        return await store_game(store, moves, result=None)


def test_the_annotated_move_list_after_the_progress(tmp_path: Path) -> None:
    database = tmp_path / "gamut.sqlite3"
    game_id = asyncio.run(stored(database, BLUNDER_GAME))
    running = asyncio.run(stored(database, BLUNDER_GAME[:2], finished=False))
    options = ("--ai-workers", "0", "--analysis-work", "300", "--analysis-nice", "0")
    with serve(database, *options) as served:
        done = analyse(served, game_id)
        assert done.returncode == 0, done.stderr
        assert "analys" in done.stderr  # the progress, while it ran
        lines = done.stdout.splitlines()
        assert lines[0] == (
            f"Game {game_id}, Connect Five 15×15: X (ada) against O (bob), O won (five)"
        )
        blunder = next(line for line in lines if line.lstrip().startswith("7. X"))
        assert "m13??" in blunder
        assert "O wins in 2 moves" in blunder
        assert re.search(r"   blunder, [3-9]\d% lost; best (f3|b3) \(", blunder), blunder
        assert any(line.startswith("X: 5 moves, ") for line in lines)
        refused = analyse(served, running)
        assert refused.returncode == 1
        assert refused.stderr.strip() == (
            f"gamut analyse: game {running} is still being played: ask once it has ended"
        )
