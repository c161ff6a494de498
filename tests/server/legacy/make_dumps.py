"""Write the databases of this folder as Gamut made them before it had migrations.

Run once, from a checkout of the last commit without migrations (where ``Store.open``
built the tables with ``create_all``), with that checkout's packages first on the path::

    python tests/server/legacy/make_dumps.py

It fills a SQLite file and a PostgreSQL schema (``gamut_legacy``, dropped afterwards)
through that Store, and writes ``sqlite.sql`` (``sqlite3 .dump``), ``postgresql.sql``
(``pg_dump --inserts``) and ``snapshot.json`` (:func:`~.content.snapshot` of the store).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from sqlalchemy import make_url

from gamut_server.storage import Store
from tests.server.legacy.content import fill, snapshot

HERE = Path(__file__).resolve().parent
POSTGRES = "postgresql://root@127.0.0.1:5432/test"
SCHEMA = "gamut_legacy"


async def _sqlite(path: Path) -> dict[str, object]:
    async with await Store.open(str(path)) as store:
        await fill(store)
        return await snapshot(store)


async def _postgres() -> dict[str, object]:
    async with await Store.open(POSTGRES, schema=SCHEMA) as store:
        await fill(store)
        return await snapshot(store)


def _pg_dump() -> str:
    url = make_url(POSTGRES)
    command = ["pg_dump", "--host", str(url.host), "--port", str(url.port or 5432)]
    command += ["--username", str(url.username), "--schema", SCHEMA, "--inserts"]
    command += ["--no-owner", "--no-privileges", str(url.database)]
    dump = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    drop = ["psql", "-h", str(url.host), "-U", str(url.username), str(url.database)]
    subprocess.run([*drop, "-c", f"DROP SCHEMA {SCHEMA} CASCADE"], check=True)
    return dump


def main() -> None:
    """Write the dumps and the snapshot; both backends must read back the same."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "legacy.sqlite3"
        written = asyncio.run(_sqlite(path))
        with sqlite3.connect(path) as connection:
            (HERE / "sqlite.sql").write_text("\n".join(connection.iterdump()) + "\n")
    if asyncio.run(_postgres()) != written:
        sys.exit("PostgreSQL and SQLite read back different contents")
    (HERE / "postgresql.sql").write_text(_pg_dump())
    (HERE / "snapshot.json").write_text(json.dumps(written, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
