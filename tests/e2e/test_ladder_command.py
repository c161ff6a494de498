"""``gamut ladder`` against a real ``gamut serve``: register, pools, standings, tokens."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.served import Served, serve

pytestmark = pytest.mark.timeout(120)


def ladder(served: Served, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run ``gamut ladder`` against ``served``."""
    command = [sys.executable, "-m", "gamut_client.commands.ladder", "--server", served.ws_url]
    return subprocess.run(
        [*command, *arguments], capture_output=True, text=True, timeout=60, check=False
    )


def test_register_list_pools_standings_and_manage_tokens(tmp_path: Path) -> None:
    with serve(tmp_path / "gamut.sqlite3", "--ai-workers", "0") as served:
        done = ladder(served, "register", "deep-five")
        assert done.returncode == 0, done.stderr
        token = next(word for word in done.stdout.split() if word.startswith("gamut_"))
        assert "--token TOKEN --ladder POOL" in done.stdout
        again = ladder(served, "register", "deep-five")
        assert again.returncode == 1
        assert "already registered" in again.stderr
        pools = ladder(served, "pools").stdout
        assert "network-5s" in pools
        assert "crusher-3" in pools
        standings = ladder(served, "standings", "network-5s")
        assert standings.returncode == 0
        assert "nobody" in standings.stdout
        everything = ladder(served, "standings").stdout
        assert everything.count("(nobody yet)") == 4
        assert ladder(served, "standings", "chess").returncode == 1
        assert "no rated game" in ladder(served, "crosstable", "loa-8").stdout
        reissued = ladder(served, "reissue", "deep-five", "--token", token)
        assert reissued.returncode == 0, reissued.stderr
        new_token = reissued.stdout.split()[-1]
        refused = ladder(served, "revoke", "deep-five", "--token", token)
        assert refused.returncode == 1
        assert "not the token" in refused.stderr
        assert ladder(served, "revoke", "deep-five", "--token", new_token).returncode == 0
