"""A PostgreSQL group with runs of moves, two statements a run and no read.

The general way (:func:`.writes.append_moves`) reads and locks the run's games, checks
every move against them, then updates the games (``executemany``, a statement a move
through SQLAlchemy and asyncpg) and inserts the moves: three statements and much Python
on the event loop for each run. Here a run's rows are made as on SQLite
(:func:`.plain_moves.plain_runs`, with the same checks) and written with one ``UPDATE
games … FROM unnest(…)`` whose conditions are the fence (the game still runs, at the
ply of its first move in the run and, with an epoch, at that epoch) and one ``INSERT
INTO moves … SELECT FROM unnest(…)``. Each statement takes one array a column, so its
text is the same whatever the run's length and asyncpg prepares it once a connection.

If fewer games' rows changed than the run has games, some move would be refused: the
transaction is rolled back and the group written the general way, which tells each
refused caller why (:class:`~.plain_moves.PlainRefusedError`, as on SQLite).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from sqlalchemy.dialects.postgresql.base import PGDialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from gamut_server.storage.group_transaction import (
    WRITER_OPTION,
    Outcome,
    Request,
    RequestError,
    run_group,
    run_plainly,
)
from gamut_server.storage.plain_moves import (
    GAME_SETS,
    MOVE_COLUMNS,
    MoveStatements,
    PlainMoves,
    PlainRefusedError,
    Run,
    plain_runs,
)
from gamut_server.storage.schema import games, moves

_DIALECT: Final = PGDialect()  # type: ignore[no-untyped-call]
"""PostgreSQL's names of the columns' types (the same for every driver)."""


def _array(column_type: Any, number: int) -> str:
    """Parameter ``number`` cast to an array of ``column_type`` (PostgreSQL's name)."""
    return f"${number}::{column_type.compile(dialect=_DIALECT)}[]"


def _unnest(types: Sequence[Any]) -> str:
    """``unnest`` of one array parameter a type of ``types``, in order."""
    return "unnest(" + ", ".join(_array(t, n) for n, t in enumerate(types, 1)) + ")"


_UPDATE_COLUMNS: Final = ("id", *GAME_SETS, "ply", "epoch")
"""The columns of :attr:`.PlainMoves.update`'s rows: a game, its new values, the fence."""

_UPDATE_TYPES: Final = [games.c[column].type for column in ("id", *GAME_SETS, "plies", "epoch")]
"""Their types: the fence's ply is a number of plies."""

UPDATE_SQL: Final = (
    "UPDATE games SET "
    + ", ".join(f"{column} = v.{column}" for column in GAME_SETS)
    + f" FROM {_unnest(_UPDATE_TYPES)} AS v({', '.join(_UPDATE_COLUMNS)})"
    " WHERE games.id = v.id AND games.status = 'running' AND games.plies = v.ply"
    " AND (v.epoch IS NULL OR games.epoch = v.epoch)"
)
"""The update of a run's games, each from one element of every array."""

INSERT_SQL: Final = (
    f"INSERT INTO moves ({', '.join(MOVE_COLUMNS)})"
    f" SELECT * FROM {_unnest([moves.c[column].type for column in MOVE_COLUMNS])}"
)
"""The insert of a run's moves, each from one element of every array."""


def _columns(values: list[Any], width: int) -> tuple[list[Any], ...]:
    """Rows of ``width`` values one after the other, as one list a column."""
    return tuple(values[n::width] for n in range(width))


async def write_run(conn: AsyncConnection, run: PlainMoves) -> None:
    """Write ``run`` in ``conn``'s transaction; :class:`PlainRefusedError` (after writing
    some of it, for the caller to roll back) if any of its moves would be refused, the
    database's errors inside :class:`RequestError`, as a request's."""
    try:
        update = _columns(run.update, len(_UPDATE_COLUMNS))
        updated = (await conn.exec_driver_sql(UPDATE_SQL, update)).rowcount
        if updated != run.games:
            raise PlainRefusedError("a move of the run must be stored the general way")
        await conn.exec_driver_sql(INSERT_SQL, _columns(run.insert, len(MOVE_COLUMNS)))
    except DBAPIError as error:
        raise RequestError(error) from error


class PostgresGroups:
    """Runs group transactions on ``engine`` (a :data:`.group.RunGroup`), its runs of
    moves two statements each (see the module)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._statements = MoveStatements.for_dialect(engine.dialect)

    async def __call__(self, group: Sequence[Request], *, savepoints: bool) -> list[Outcome]:
        """Run ``group`` in one transaction and commit it; every request's outcome."""
        runs = None if savepoints else plain_runs(self._statements, group)
        if runs is not None:
            try:
                return await self._run_plain(runs)
            except PlainRefusedError:
                pass  # rolled back: the general way tells each refused caller why
        return await run_group(self._engine, group, savepoints=savepoints)

    async def _run_plain(self, runs: list[Run]) -> list[Outcome]:
        """The group's runs in one transaction, the moves' from their plain rows."""
        async with self._engine.connect() as conn:
            await conn.execution_options(**{WRITER_OPTION: True})
            async with conn.begin():
                outcomes: list[Outcome] = []
                for run, plain in runs:
                    if plain is None:
                        outcomes += await run_plainly(conn, run)
                    else:
                        await write_run(conn, plain)
                        outcomes += [Outcome(request) for request in run]
                return outcomes
