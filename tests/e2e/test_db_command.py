"""``gamut db`` and ``gamut serve --no-migrate`` on a database made before migrations."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from gamut_server.storage.migrate import head_revision
from tests.e2e.served import serve, serve_command
from tests.e2e.test_serve import get_json

HEAD = head_revision()
LEGACY_DUMP = Path(__file__).resolve().parents[1] / "server" / "legacy" / "sqlite.sql"

HEAD = head_revision()
"""The newest schema revision, the one an old database is brought to."""


def gamut(*arguments: str) -> subprocess.CompletedProcess[str]:
    """Run the ``gamut`` command."""
    command = [sys.executable, "-m", "gamut_client.cli", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def legacy_database(tmp_path: Path) -> Path:
    """A SQLite file as Gamut wrote it before it had migrations."""
    path = tmp_path / "gamut.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.executescript(LEGACY_DUMP.read_text())
    return path


def test_db_current_and_upgrade(tmp_path: Path) -> None:
    db = str(legacy_database(tmp_path))
    before = gamut("db", "current", "--db", db)
    assert before.returncode == 1
    assert f"made before Gamut had migrations and needs revision {HEAD}" in before.stdout
    upgraded = gamut("db", "upgrade", "--db", db)
    assert upgraded.returncode == 0, upgraded.stderr
    assert f"now it is at revision {HEAD}, the newest" in upgraded.stdout
    after = gamut("db", "current", "--db", db)
    assert (after.returncode, after.stdout) == (
        0,
        f"The database is at revision {HEAD}, the newest this Gamut knows.\n",
    )
    assert "Nothing to do" in gamut("db", "upgrade", "--db", db).stdout


def test_db_current_creates_no_database(tmp_path: Path) -> None:
    missing = tmp_path / "typo.sqlite3"
    checked = gamut("db", "current", "--db", str(missing))
    assert (checked.returncode, checked.stdout) == (1, f"There is no database at {missing}.\n")
    assert not missing.exists()


def test_serve_without_migrating_refuses_an_old_database(tmp_path: Path) -> None:
    db = legacy_database(tmp_path)
    command = serve_command(db, "--no-migrate", "--ai-workers", "0")
    refused = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert refused.returncode == 1
    assert refused.stderr.strip().endswith(
        "gamut serve: the database was made before Gamut had migrations and needs revision "
        f"{HEAD}; run `gamut db upgrade` (or start the server without --no-migrate) to bring "
        "it up to date"
    )
    assert (
        "alembic_version"
        not in sqlite3.connect(db)
        .execute("SELECT group_concat(name) FROM sqlite_master")
        .fetchone()[0]
    )


async def test_serve_upgrades_an_old_database_and_serves_its_games(tmp_path: Path) -> None:
    db = legacy_database(tmp_path)
    with serve(db, "--ai-workers", "0") as served:
        record = await get_json(f"{served.http_url}/api/games/finished1")
        assert [move["move"] for move in record["moves"]] == ["a1", "b2", "c3"]
        rooms = await get_json(served.http_url + "/api/rooms")
        assert "running1" in [room["room_id"] for room in rooms]
