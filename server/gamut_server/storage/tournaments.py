"""Tournaments in the store: each tournament, its entrants and its games.

A tournament row holds its settings (game, options, time control, kind, start, length
or rounds, who may enter) and where it stands (``upcoming``, ``running``,
``finished``). Each entrant is a row (withdrawn ones are kept, marked), and each game a
row numbered within its tournament: a round robin writes its whole schedule when it
starts (``scheduled`` rows without a game yet), an arena writes a row as it pairs. A
row links the stored game (``games.id``) once it is played, and keeps its result, so
standings are read back from the store by any node that leads. :class:`TournamentStorage`
is a mixin of the :class:`~gamut_server.storage.Store`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from datetime import datetime
from typing import Any, Final

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Table,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.elements import ColumnElement

from gamut_server.records.tournaments import Entrant, TournamentGame, TournamentRecord
from gamut_server.storage.mixin import StoreMixin
from gamut_server.storage.schema import JSONColumn, UTCDateTime, metadata

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("game", String, nullable=False),
    Column("options", JSONColumn, nullable=False),
    Column("time_control", JSONColumn, nullable=False),
    Column("kind", String(12), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("entry", String(8), nullable=False),
    Column("starts_at", UTCDateTime, nullable=False),
    Column("minutes", Integer),
    Column("rounds", Integer),
    Column("status", String(10), nullable=False),
    Column("created_by", String, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("finished_at", UTCDateTime),
    Column("openings", JSONColumn),
    Index("ix_tournaments_status", "status"),
)
"""One row per tournament: its settings and where it stands."""


def _tournament_key() -> Column[str]:
    """The column of a tournament's rows in another table: its tournament's id."""
    return Column(
        "tournament_id",
        String(16),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    )


tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    _tournament_key(),
    Column("name", String, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id")),
    Column("kind", String(8), nullable=False),
    Column("withdrawn", Boolean, nullable=False),
    Column("joined_at", UTCDateTime, nullable=False),
)
"""Who entered each tournament (and whether they withdrew)."""

tournament_games = Table(
    "tournament_games",
    metadata,
    _tournament_key(),
    Column("number", Integer, primary_key=True),
    Column("round", Integer, nullable=False),
    Column("first", String, nullable=False),
    Column("second", String, nullable=False),
    Column("game_id", String(16), ForeignKey("games.id")),
    Column("status", String(10), nullable=False),
    Column("winner", SmallInteger),
    Column("reason", String),
)
"""Each game of each tournament: scheduled, playing, then its result."""


class TournamentStorage(StoreMixin):
    """The tournaments' methods of the store."""

    async def create_tournament(self, record: TournamentRecord) -> None:
        """Store a new tournament."""
        row = _named(record, _TOURNAMENT_COLUMNS)
        await self._transact(lambda conn: _execute(conn, insert(tournaments).values(**row)))

    async def tournament_list(self, *, unfinished: bool = False) -> list[TournamentRecord]:
        """Every tournament (or only those not finished), newest start first."""
        query = select(tournaments).order_by(tournaments.c.starts_at.desc())
        if unfinished:
            query = query.where(tournaments.c.status != "finished")
        async with self._read() as conn:
            return [_tournament(row) for row in await conn.execute(query)]

    async def tournament(self, tournament_id: str) -> TournamentRecord | None:
        """One tournament, or ``None``."""
        async with self._read() as conn:
            query = select(tournaments).where(tournaments.c.id == tournament_id)
            row = (await conn.execute(query)).first()
        return None if row is None else _tournament(row)

    async def set_tournament_status(
        self, tournament_id: str, status: str, at: datetime | None = None
    ) -> None:
        """Move a tournament on (``running``, ``finished`` at ``at``)."""
        values: dict[str, Any] = {"status": status}
        if status == "finished":
            values["finished_at"] = at
        await self._update(tournaments, {"id": tournament_id}, values)

    async def move_tournament_start(self, tournament_id: str, starts_at: datetime) -> None:
        """Start an upcoming tournament at ``starts_at`` instead."""
        keys = {"id": tournament_id, "status": "upcoming"}
        await self._update(tournaments, keys, {"starts_at": starts_at})

    async def tournament_entrants(self, tournament_id: str) -> list[Entrant]:
        """A tournament's entrants, in the order they joined."""
        async with self._read() as conn:
            query = (
                select(tournament_entrants)
                .where(tournament_entrants.c.tournament_id == tournament_id)
                .order_by(tournament_entrants.c.joined_at, tournament_entrants.c.name)
            )
            rows = await conn.execute(query)
            return [Entrant(**_named(row, _ENTRANT_FIELDS)) for row in rows]

    async def enter_tournament(self, tournament_id: str, entrant: Entrant) -> None:
        """Add an entrant, or mark one that had withdrawn as back."""
        await self._transact(lambda conn: _enter(conn, tournament_id, entrant))

    async def withdraw_from_tournament(self, tournament_id: str, name: str) -> None:
        """Mark an entrant as withdrawn."""
        keys = {"tournament_id": tournament_id, "name": name}
        await self._update(tournament_entrants, keys, {"withdrawn": True})

    async def tournament_games(self, tournament_id: str) -> list[TournamentGame]:
        """A tournament's games, in their order."""
        async with self._read() as conn:
            query = (
                select(tournament_games)
                .where(tournament_games.c.tournament_id == tournament_id)
                .order_by(tournament_games.c.number)
            )
            return [_game(row) for row in await conn.execute(query)]

    async def add_tournament_games(
        self, tournament_id: str, games: Sequence[TournamentGame]
    ) -> None:
        """Store games of a tournament (new numbers)."""
        rows = [{"tournament_id": tournament_id, **_game_values(game)} for game in games]
        if rows:
            await self._transact(lambda conn: _execute(conn, insert(tournament_games), rows))

    async def update_tournament_game(self, tournament_id: str, game: TournamentGame) -> None:
        """Store where one game of a tournament stands now."""
        keys = {"tournament_id": tournament_id, "number": game.number}
        await self._update(tournament_games, keys, _game_values(game))

    async def _update(
        self, table: Table, keys: Mapping[str, Any], values: Mapping[str, Any]
    ) -> None:
        """Set ``values`` in the rows of ``table`` whose columns equal ``keys``."""
        query = update(table).where(*_matching(table, keys)).values(**values)
        await self._transact(lambda conn: _execute(conn, query))


def _matching(table: Table, keys: Mapping[str, Any]) -> list[ColumnElement[bool]]:
    """The conditions that the columns of ``table`` equal ``keys``."""
    return [table.c[name] == value for name, value in keys.items()]


async def _execute(conn: AsyncConnection, query: Any, rows: Any = None) -> None:
    if rows is None:
        await conn.execute(query)
    else:
        await conn.execute(query, rows)


async def _enter(conn: AsyncConnection, tournament_id: str, entrant: Entrant) -> None:
    table = tournament_entrants
    keys = {"tournament_id": tournament_id, "name": entrant.name}
    found = await conn.execute(select(table.c.name).where(*_matching(table, keys)))
    if found.first() is None:
        await conn.execute(
            insert(table).values(
                {
                    **_named(entrant, _ENTRANT_FIELDS),
                    "withdrawn": False,
                    "tournament_id": tournament_id,
                }
            )
        )
    else:
        await conn.execute(update(table).where(*_matching(table, keys)).values(withdrawn=False))


def _tournament(row: Row[Any]) -> TournamentRecord:
    return TournamentRecord(**_named(row, _TOURNAMENT_COLUMNS))


def _game(row: Row[Any]) -> TournamentGame:
    return TournamentGame(**_named(row, _GAME_FIELDS))


def _game_values(game: TournamentGame) -> dict[str, Any]:
    return _named(game, _GAME_FIELDS)


def _named(source: Any, names: Iterable[str]) -> dict[str, Any]:
    """``source``'s attributes called ``names`` (a row's columns, a record's fields)."""
    return {name: getattr(source, name) for name in names}


_TOURNAMENT_COLUMNS: Final = tuple(column.name for column in tournaments.c)
"""A tournament's columns, each a field of :class:`TournamentRecord`."""
_ENTRANT_FIELDS: Final = tuple(field.name for field in fields(Entrant))
"""An entrant's fields, each a column of ``tournament_entrants``."""
_GAME_FIELDS: Final = tuple(field.name for field in fields(TournamentGame))
"""A tournament game's fields, each a column of ``tournament_games``."""
