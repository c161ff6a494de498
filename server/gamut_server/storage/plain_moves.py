"""A run of moves written to a SQLite file as plain rows, with two ``executemany`` calls.

The store's statements are compiled once for the writer's dialect (:class:`MoveStatements`);
a run's rows, every value already converted as SQLAlchemy would bind it, are built on
the event loop (:func:`plain_rows`). The writer thread then has only ``sqlite3``'s calls
to make, which release the interpreter lock while SQLite works, so the event loop is
not kept waiting for it by SQLAlchemy's Python (statements, parameters, results).

The games' rows are updated first, each only if its game still runs at the move's ply
(and, with an epoch, at that epoch: the fence of :func:`.writes.append_move`), in the
order the moves came, so two plies of one game in one run are fine. If fewer rows
changed than there are moves, some move would be refused: the run raises
:class:`PlainRefusedError`, and the caller rolls the transaction back and writes the
group the general way, which tells each refused caller why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import bindparam, insert, or_
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

from gamut_server.records.games import MoveRecord
from gamut_server.storage.errors import StorageError
from gamut_server.storage.schema import games, moves
from gamut_server.storage.writes import BATCH_GAME_UPDATE, game_params, move_row

MoveItem = tuple[str, MoveRecord, int | None]
"""One move of a run: its game, the move and the epoch it is fenced by (or ``None``)."""

Row = tuple[Any, ...]
"""The positional parameters of one statement's execution."""


class PlainRefusedError(StorageError):
    """Some move of a plain run would be refused; write the group the general way."""


@dataclass(frozen=True, slots=True)
class Compiled:
    """One statement compiled for a dialect: its SQL, and how to make its parameters."""

    sql: str
    """The SQL text with positional parameters."""
    names: tuple[str, ...]
    """The parameters' names, in their order in :attr:`sql`."""
    fixed: Mapping[str, Any]
    """Values bound in the statement itself (literals the compiler made parameters)."""
    processors: tuple[Callable[[Any], Any] | None, ...]
    """Each parameter's bind conversion (``None``: passed as it is)."""

    @classmethod
    def of(cls, statement: ClauseElement, dialect: Dialect) -> Compiled:
        """``statement`` compiled for ``dialect``, whose parameters are positional."""
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
        if not dialect.positional or compiled.positiontup is None:
            raise ValueError("plain statements take positional parameters")
        names = tuple(compiled.positiontup)
        processors = tuple(compiled.binds[name].type.bind_processor(dialect) for name in names)
        return cls(str(compiled), names, dict(compiled.params), processors)

    def row(self, values: Mapping[str, Any]) -> Row:
        """The positional parameters for ``values`` (by name), converted."""
        return tuple(
            process(value) if process is not None else value
            for process, value in zip(
                self.processors,
                (values[name] if name in values else self.fixed[name] for name in self.names),
                strict=True,
            )
        )


def _fenced_update() -> ClauseElement:
    """A game's row moved on by one move, if it runs at that ply (and epoch, if given)."""
    epoch = bindparam("b_epoch", type_=games.c.epoch.type)
    return BATCH_GAME_UPDATE.where(
        games.c.status == "running",
        games.c.plies == bindparam("b_ply"),
        or_(epoch.is_(None), games.c.epoch == epoch),
    )


@dataclass(frozen=True, slots=True)
class MoveStatements:
    """The two statements of a plain run of moves, compiled once for a dialect."""

    update: Compiled
    """The games' rows, each moved on if its move is the next (see :func:`_fenced_update`)."""
    insert: Compiled
    """The moves' rows."""

    @classmethod
    def for_dialect(cls, dialect: Dialect) -> MoveStatements:
        """Both statements compiled for ``dialect``."""
        return cls(Compiled.of(_fenced_update(), dialect), Compiled.of(insert(moves), dialect))


@dataclass(frozen=True, slots=True)
class PlainMoves:
    """A run of moves' rows, ready for ``executemany``."""

    updates: list[Row]
    """The games' updates, one a move, in order."""
    inserts: list[Row]
    """The moves' rows."""


def plain_rows(statements: MoveStatements, items: Sequence[MoveItem]) -> PlainMoves:
    """The rows of ``items`` (on the event loop: no database call)."""
    updates = [
        statements.update.row({**game_params(game_id, move), "b_ply": move.ply, "b_epoch": epoch})
        for game_id, move, epoch in items
    ]
    inserts = [statements.insert.row(move_row(game_id, move)) for game_id, move, _ in items]
    return PlainMoves(updates, inserts)


def write_plain(conn: Connection, statements: MoveStatements, run: PlainMoves) -> None:
    """Write ``run`` in ``conn``'s transaction; :class:`PlainRefusedError` (after writing
    some of it, for the caller to roll back) if any of its moves would be refused.

    The rows go to the driver as they are (no statement to compile, nothing to convert);
    its errors are SQLAlchemy's, as for every other statement of the store.
    """
    if conn.exec_driver_sql(statements.update.sql, run.updates).rowcount != len(run.updates):
        raise PlainRefusedError("a move of the run must be stored the general way")
    conn.exec_driver_sql(statements.insert.sql, run.inserts)
