"""``gamut db``: see where a database's tables stand, and upgrade them.

Registered as a ``gamut.commands`` entry point (``db = "gamut_server.db_cli:register"``).
``gamut serve`` upgrades at start anyway; this command lets an operator do it first, or
check a database that a server started with ``--no-migrate`` refused. Registering it
imports nothing of the database: :func:`run` does, when the command runs.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy.engine import URL
    from sqlalchemy.ext.asyncio import AsyncEngine


def register(subparsers: Any) -> None:
    """Add the ``db`` subcommand with ``upgrade`` and ``current``."""
    parser = subparsers.add_parser("db", help="the database's tables: upgrade or check them")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, summary in (
        ("upgrade", "bring the database's tables to this Gamut's newest revision"),
        ("current", "say which revision the database is at (exit status 1 if not the newest)"),
    ):
        action = actions.add_parser(name, help=summary, description=summary)
        action.add_argument(
            "--db", help="a SQLite file or a postgresql:// URL (default env GAMUT_DB, else "
            "gamut.sqlite3)"
        )  # fmt: skip
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run ``gamut db ACTION``; returns the exit status."""
    from gamut_server.config import ServerConfig
    from gamut_server.storage import SchemaError, database_url
    from gamut_server.storage.connect import make_engine

    try:
        db = ServerConfig.from_env().with_overrides(db=args.db).db
        url = database_url(db)
    except ValueError as error:
        raise SystemExit(f"gamut db: {error}") from None
    if args.action == "current" and _missing_file(url):
        print(f"There is no database at {url.database}.")
        return 1
    action = _upgrade if args.action == "upgrade" else _current
    try:
        return asyncio.run(_with_engine(make_engine(url, None), action))
    except SchemaError as error:
        raise SystemExit(f"gamut db: {error}") from None


def _missing_file(url: URL) -> bool:
    """Whether ``url`` names a SQLite file that does not exist (opening would create it)."""
    from gamut_server.storage.urls import is_memory, is_sqlite

    return is_sqlite(url) and not is_memory(url) and not Path(str(url.database)).exists()


async def _with_engine(engine: AsyncEngine, action: Callable[[AsyncEngine], Awaitable[int]]) -> int:
    try:
        return await action(engine)
    finally:
        await engine.dispose()


async def _current(engine: AsyncEngine) -> int:
    from gamut_server.storage.migrate import schema_state

    state = await schema_state(engine)
    print(f"The database {state.describe()}.")
    return 0 if state.up_to_date else 1


async def _upgrade(engine: AsyncEngine) -> int:
    from gamut_server.storage.migrate import schema_state, upgrade

    before = await upgrade(engine)
    after = await schema_state(engine)
    if before.up_to_date:
        print(f"Nothing to do: the database {after.describe()}.")
    else:
        print(f"Upgraded: the database {before.describe()}; now it {after.describe()}.")
    return 0
