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
from gamut_server.storage.schema import games, moves
from gamut_server.storage.writes import game_params, move_row

MoveItem = tuple[str, MoveRecord, int | None]
"""One move of a run: its game, the move and the epoch it is fenced by (or ``None``)."""

Processor = Callable[[Any], Any] | None
"""A column's bind conversion for the dialect (``None``: the value as it is)."""

_GAME_SETS: Final = (
    ("plies", "b_plies"),
    ("last_seq", "b_seq"),
    ("clock_at", "b_at"),
    ("clock0_ms", "b_clock0"),
    ("clock1_ms", "b_clock1"),
    ("to_move", "b_to_move"),
)
"""The games' columns a move sets, and their values' names in :func:`.writes.game_params`."""

_MOVE_COLUMNS: Final = tuple(column.name for column in moves.columns)
"""The moves' columns, in the order of each inserted row."""


class PlainRefusedError(StorageError):
    """Some move of a plain run would be refused; write the group the general way."""


@lru_cache(maxsize=256)
def _update_sql(games_count: int) -> str:
    """The update of ``games_count`` games' rows, each from one row of values: its id,
    the values of :data:`_GAME_SETS`, the ply expected and the epoch (or ``NULL``)."""
    width = len(_GAME_SETS) + 3
    values = ", ".join(["(" + ", ".join("?" * width) + ")"] * games_count)
    sets = ", ".join(f"{column} = v.column{n}" for n, (column, _) in enumerate(_GAME_SETS, 2))
    ply, epoch = f"v.column{width - 1}", f"v.column{width}"
    return (
        f"UPDATE games SET {sets} FROM (VALUES {values}) AS v WHERE games.id = v.column1"
        f" AND games.status = 'running' AND games.plies = {ply}"
        f" AND ({epoch} IS NULL OR games.epoch = {epoch})"
    )


@lru_cache(maxsize=256)
def _insert_sql(moves_count: int) -> str:
    """The insert of ``moves_count`` moves' rows."""
    row = "(" + ", ".join("?" * len(_MOVE_COLUMNS)) + ")"
    return f"INSERT INTO moves ({', '.join(_MOVE_COLUMNS)}) VALUES {', '.join([row] * moves_count)}"


def _processor(column_type: TypeEngine[Any], dialect: Dialect) -> Processor:
    """How ``dialect`` converts a value of ``column_type`` (the dialect's own form of the
    type: SQLite's timestamps become the text SQLAlchemy stores, not the driver's)."""
    return column_type.dialect_impl(dialect).bind_processor(dialect)


@dataclass(frozen=True, slots=True)
class MoveStatements:
    """How the values of a plain run are converted for a dialect, found once."""

    game_processors: tuple[Processor, ...]
    """The conversion of each of :data:`_GAME_SETS`' values."""
    move_processors: tuple[Processor, ...]
    """The conversion of each of :data:`_MOVE_COLUMNS`' values."""

    @classmethod
    def for_dialect(cls, dialect: Dialect) -> MoveStatements:
        """The conversions for ``dialect``."""
        return cls(
            tuple(_processor(games.c[column].type, dialect) for column, _ in _GAME_SETS),
            tuple(_processor(moves.c[column].type, dialect) for column in _MOVE_COLUMNS),
        )


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


def _converted(processors: Sequence[Processor], values: Sequence[Any]) -> list[Any]:
    """``values`` each converted by its processor."""
    return [
        value if process is None else process(value)
        for process, value in zip(processors, values, strict=True)
    ]


def plain_rows(statements: MoveStatements, items: Sequence[MoveItem]) -> PlainMoves | None:
    """The parameters of ``items`` (on the event loop: no database call); ``None`` if a
    game's moves in the run do not follow each other, to be written the general way."""
    first: dict[str, MoveItem] = {}
    last: dict[str, MoveItem] = {}
    for item in items:
        game_id, move, epoch = item
        before = last.get(game_id)
        if before is not None and (before[1].ply + 1, before[2]) != (move.ply, epoch):
            return None
        first.setdefault(game_id, item)
        last[game_id] = item
    update: list[Any] = []
    for game_id, (_, move, epoch) in last.items():
        params = game_params(game_id, move)
        values = _converted(statements.game_processors, [params[key] for _, key in _GAME_SETS])
        update += [game_id, *values, first[game_id][1].ply, epoch]
    insert: list[Any] = []
    for game_id, move, _ in items:
        row = move_row(game_id, move)
        insert += _converted(statements.move_processors, [row[key] for key in _MOVE_COLUMNS])
    return PlainMoves(len(last), update, len(items), insert)


def write_plain(conn: Connection, run: PlainMoves) -> None:
    """Write ``run`` in ``conn``'s transaction; :class:`PlainRefusedError` (after writing
    some of it, for the caller to roll back) if any of its moves would be refused.

    The parameters go to the driver as they are (nothing to compile or convert); its
    errors are SQLAlchemy's, as for every other statement of the store.
    """
    updated = conn.exec_driver_sql(_update_sql(run.games), tuple(run.update)).rowcount
    if updated != run.games:
        raise PlainRefusedError("a move of the run must be stored the general way")
    conn.exec_driver_sql(_insert_sql(run.moves), tuple(run.insert))
