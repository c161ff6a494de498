"""Settings for the whole test run.

Each folder of ``tests/plugins`` goes on the import path of this process and of every
command a test starts, before anything reads the game registry: each holds a game package
(Hex on a rhombus board, Connect Four) with its own ``gamut.games`` entry point, which
Gamut finds as it would find any game installed from another package.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.server.storage_backends import postgres_database

PLUGINS = sorted(
    str(project.parent) for project in Path(__file__).parent.glob("plugins/*/pyproject.toml")
)
"""The folders of the test-only game packages, each with its metadata."""

sys.path[:0] = PLUGINS
os.environ["PYTHONPATH"] = os.pathsep.join(
    [*PLUGINS, *filter(None, [os.environ.get("PYTHONPATH")])]
)


@pytest.fixture(scope="session", autouse=True)
def private_config_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``XDG_CONFIG_HOME`` in a temporary folder for the whole run, before any other
    fixture, so that no test, and no command a test starts, saves anything (such as
    ``gamut play``'s and ``gamut bot``'s guest tokens) in the real home's configuration."""
    folder = tmp_path_factory.mktemp("config")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(folder))
        yield folder


@pytest.fixture(params=["sqlite", "postgresql"])
async def server_db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The database of a test's server, as ``--db`` takes it: a SQLite file in the test's
    folder, then a PostgreSQL database of the test's own (skipped without PostgreSQL,
    except under ``CI=true``)."""
    if request.param == "sqlite":
        yield str(tmp_path / "gamut.sqlite3")
        return
    async with postgres_database() as url:
        yield url
