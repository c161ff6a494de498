"""The pure layers load without the libraries of the layers above them.

Each check imports a module in a fresh interpreter (this one has loaded everything
already) and lists which of the heavier libraries came with it.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

ABOVE_THE_PURE_LAYERS = (
    "sqlalchemy",
    "asyncio",
    "aiohttp",
    "redis",
    "concurrent.futures",
    "multiprocessing",
)


def loaded_with(module: str) -> list[str]:
    """The libraries of :data:`ABOVE_THE_PURE_LAYERS` that importing ``module`` loads."""
    probe = (
        f"import sys, {module}; "
        f"print(' '.join(m for m in {ABOVE_THE_PURE_LAYERS!r} if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return done.stdout.split()


def test_a_room_loads_without_sqlalchemy() -> None:
    """The issue's own check: a room is a state machine, not a database client."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, gamut_server.rooms.room; print('sqlalchemy' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stdout.strip() == "False"


@pytest.mark.parametrize(
    "module",
    [
        "gamut_server.rooms",
        "gamut_server.records.games",
        "gamut_server.records.ladder",
        "gamut_server.records.tournaments",
        "gamut_server.tournaments.schedule",
        "gamut_server.tournaments.settings",
        "gamut_server.tournaments.standings",
        "gamut_server.ladder.accounts",
        "gamut_server.ladder.pairing",
        "gamut_server.ladder.pools",
        "gamut_server.ladder.ratings",
        "gamut_server.ladder.standings",
    ],
)
def test_pure_server_layers_load_no_io_library(module: str) -> None:
    """The rooms, the lobby, the ladder and the records do no I/O and use no event loop."""
    assert loaded_with(module) == []


@pytest.mark.parametrize("module", ["gamut_engine", "gamut_engine.match"])
def test_the_engine_owns_no_process(module: str) -> None:
    """The match runner plays games one after the other; worker processes are its callers'."""
    assert loaded_with(module) == []
