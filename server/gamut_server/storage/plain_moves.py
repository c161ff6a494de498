"""A run of moves written to a SQLite file as plain rows, two statements for the run.

A run's rows, every value already converted as SQLAlchemy would bind it, are built on
the event loop (:func:`plain_rows`), with the columns and conversions found once for
the writer's dialect (:class:`MoveStatements`). The writer thread then only hands two
statements to ``sqlite3``: one ``UPDATE … FROM (VALUES …)`` of every game of the run
and one multi-row ``INSERT`` of its moves. ``sqlite3`` lets go of the interpreter lock
while SQLite works and must take it back after each call, which waits for the event
loop to yield it (up to the interpreter's switch interval, 5 ms): so the run is two
calls, not one a row as ``executemany`` would make, and SQLAlchemy's Python
(statements, parameters, results) does not run on the thread at all.

Each game's row is updated only if the game still runs at the ply of its first move in
the run (and, with an epoch, at that epoch: the fence of :func:`.writes.append_move`),
to its last move's clocks, ply and sequence number. A run whose moves of one game do
not follow each other ply after ply (or change epoch) is not made plain at all. If
fewer games' rows changed than the run has games, some move would be refused: the run
raises :class:`PlainRefusedError`, and the caller rolls the transaction back and
writes the group the general way, which tells each refused caller why.

PostgreSQL's group writers make their runs' rows and checks with the same code
(:func:`plain_runs`) and write them with statements of their own (:mod:`.pg_moves`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.types import TypeEngine

from gamut_server.records.games import MoveRecord
from gamut_server.storage.errors import StorageError
from gamut_server.storage.group_transaction import Request, runs_of
from gamut_server.storage.schema import games, moves
from gamut_server.storage.writes import append_moves

MoveItem = tuple[str, MoveRecord, int | None]
"""One move of a run: its game, the move and the epoch it is fenced by (or ``None``)."""

Processor = Callable[[Any], Any]
"""A column's bind conversion for the dialect."""

Conversions = tuple[tuple[int, Processor], ...]
"""The values of a row that the dialect converts: each one's position and conversion."""

GAME_SETS: Final = ("plies", "last_seq", "clock_at", "clock0_ms", "clock1_ms", "to_move")
"""The games' columns a move sets, in the order of :func:`_game_values`."""

MOVE_COLUMNS: Final = (
    *("game_id", "ply", "move", "side", "think_ms"),
    *("clock0_ms", "clock1_ms", "to_move", "seq", "at"),
)
"""The moves' columns, in the order of each inserted row (:func:`_move_values`)."""

Run = tuple[list[Request], "PlainMoves | None"]
"""A run of a group (see :func:`.group_transaction.runs_of`), with its plain rows if it
is a run of moves."""


class PlainRefusedError(StorageError):
    """Some move of a plain run would be refused; write the group the general way."""


@lru_cache(maxsize=256)
def update_sql(games_count: int) -> str:
    """The update of ``games_count`` games' rows, each from one row of values: its id,
    the values of :data:`GAME_SETS`, the ply expected and the epoch (or ``NULL``)."""
    width = len(GAME_SETS) + 3
    values = ", ".join(["(" + ", ".join("?" * width) + ")"] * games_count)
    sets = ", ".join(f"{column} = v.column{n}" for n, column in enumerate(GAME_SETS, 2))
    ply, epoch = f"v.column{width - 1}", f"v.column{width}"
    return (
        f"UPDATE games SET {sets} FROM (VALUES {values}) AS v WHERE games.id = v.column1"
        f" AND games.status = 'running' AND games.plies = {ply}"
        f" AND ({epoch} IS NULL OR games.epoch = {epoch})"
    )


@lru_cache(maxsize=256)
def insert_sql(moves_count: int) -> str:
    """The insert of ``moves_count`` moves' rows."""
    row = "(" + ", ".join("?" * len(MOVE_COLUMNS)) + ")"
    return f"INSERT INTO moves ({', '.join(MOVE_COLUMNS)}) VALUES {', '.join([row] * moves_count)}"


def _processor(column_type: TypeEngine[Any], dialect: Dialect) -> Processor | None:
    """How ``dialect`` converts a value of ``column_type`` (the dialect's own form of the
    type: SQLite's timestamps become the text SQLAlchemy stores, not the driver's)."""
    return column_type.dialect_impl(dialect).bind_processor(dialect)


@dataclass(frozen=True, slots=True)
class MoveStatements:
    """How the values of a plain run are converted for a dialect, found once."""

    game_processors: Conversions
    """The conversion of each of :data:`GAME_SETS`' values that has one, by position."""
    move_processors: Conversions
    """The conversion of each of :data:`MOVE_COLUMNS`' values that has one, by position."""

    @classmethod
    def for_dialect(cls, dialect: Dialect) -> MoveStatements:
        """The conversions for ``dialect``."""
        game_types = [games.c[column].type for column in GAME_SETS]
        move_types = [moves.c[column].type for column in MOVE_COLUMNS]
        return cls(_processors(game_types, dialect), _processors(move_types, dialect))


def _processors(types: Sequence[TypeEngine[Any]], dialect: Dialect) -> Conversions:
    """The position and conversion of each of ``types`` that ``dialect`` converts."""
    found = ((n, _processor(column_type, dialect)) for n, column_type in enumerate(types))
    return tuple((n, process) for n, process in found if process is not None)


@dataclass(frozen=True, slots=True)
class PlainMoves:
    """A run of moves as the parameters of its two statements."""

    games: int
    """How many games the run moves on."""
    update: list[Any]
    """The games' update's parameters, a game's row after the other."""
    moves: int
    """How many moves the run inserts."""
    insert: list[Any]
    """The moves' insert's parameters, a move's row after the other."""


def _convert(processors: Conversions, values: list[Any]) -> list[Any]:
    """``values``, each that has a processor converted in place."""
    for n, process in processors:
        values[n] = process(values[n])
    return values


def _game_values(move: MoveRecord) -> list[Any]:
    """The values of :data:`GAME_SETS` after ``move`` (as :func:`.writes.game_params`)."""
    remaining = move.clock.remaining_ms or (None, None)
    return [move.ply + 1, move.seq, move.at, remaining[0], remaining[1], move.clock.to_move]


def _move_values(game_id: str, move: MoveRecord) -> list[Any]:
    """A moves row in the order of :data:`MOVE_COLUMNS` (as :func:`.writes.move_row`)."""
    remaining = move.clock.remaining_ms or (None, None)
    clock0, clock1 = remaining
    return [
        *(game_id, move.ply, move.move, move.side, move.think_ms),
        *(clock0, clock1, move.clock.to_move, move.seq, move.at),
    ]


def plain_rows(statements: MoveStatements, items: Sequence[MoveItem]) -> PlainMoves | None:
    """The parameters of ``items`` (on the event loop: no database call); ``None`` if a
    game's moves in the run do not follow each other, to be written the general way."""
    first: dict[str, MoveItem] = {}
    last: dict[str, MoveItem] = {}
    insert: list[Any] = []
    for item in items:
        game_id, move, epoch = item
        before = last.get(game_id)
        if before is None:
            first[game_id] = item
        elif (before[1].ply + 1, before[2]) != (move.ply, epoch):
            return None
        last[game_id] = item
        insert += _convert(statements.move_processors, _move_values(game_id, move))
    update: list[Any] = []
    for game_id, (_, move, epoch) in last.items():
        values = _convert(statements.game_processors, _game_values(move))
        update += [game_id, *values, first[game_id][1].ply, epoch]
    return PlainMoves(len(last), update, len(items), insert)


def _moves_rows(statements: MoveStatements, run: list[Request]) -> PlainMoves | None:
    """The plain rows of a run of moves (``None``: not moves, or the general way's)."""
    if run[0].batch is not append_moves:
        return None
    return plain_rows(statements, [request.item for request in run])


def plain_runs(statements: MoveStatements, group: Sequence[Request]) -> list[Run] | None:
    """On the event loop: ``group``'s runs, each run of moves' rows made (``None``: the
    group has no run of moves that can be written plainly)."""
    runs: list[Run] = [(run, _moves_rows(statements, run)) for run in runs_of(group)]
    return runs if any(plain is not None for _, plain in runs) else None


def write_plain(conn: Connection, run: PlainMoves) -> None:
    """Write ``run`` in ``conn``'s transaction; :class:`PlainRefusedError` (after writing
    some of it, for the caller to roll back) if any of its moves would be refused.

    The parameters go to the driver as they are (nothing to compile or convert); its
    errors are SQLAlchemy's, as for every other statement of the store.
    """
    updated = conn.exec_driver_sql(update_sql(run.games), tuple(run.update)).rowcount
    if updated != run.games:
        raise PlainRefusedError("a move of the run must be stored the general way")
    conn.exec_driver_sql(insert_sql(run.moves), tuple(run.insert))
