"""The store's writes, each run inside a transaction that the caller opens and commits."""

from __future__ import annotations

from datetime import datetime
from typing import NoReturn

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_server.storage.convert import clock_values, player_values, result_values
from gamut_server.storage.errors import (
    DuplicateMoveError,
    GameNotFoundError,
    GameStateError,
    MoveOrderError,
)
from gamut_server.storage.records import (
    UNFINISHED,
    ChatLine,
    Clock,
    GameStatus,
    MoveRecord,
    NewGame,
    Player,
    Result,
)
from gamut_server.storage.schema import accounts, chat, games, moves


async def insert_game(
    conn: AsyncConnection, game_id: str, spec: NewGame, status: GameStatus, at: datetime
) -> None:
    """Add the games row for ``spec``; ``status`` is ``waiting`` or ``running``."""
    started = at if status == "running" else None
    await conn.execute(
        insert(games).values(
            id=game_id,
            game=spec.game,
            options=dict(spec.options),
            time_control=dict(spec.time_control),
            **player_values(spec.players),
            rated=spec.rated,
            pool=spec.pool,
            status=status,
            **clock_values(spec.clock),
            clock_at=started,
            plies=0,
            last_seq=0,
            created_at=at,
            started_at=started,
        )
    )


async def start_game(
    conn: AsyncConnection,
    game_id: str,
    players: tuple[Player, Player],
    clock: Clock | None,
    seq: int | None,
    at: datetime,
) -> None:
    """Seat both players and set a waiting game running."""
    values = {**player_values(players), "status": "running", "started_at": at, "clock_at": at}
    values.update(_optional_values(clock, seq))
    statement = update(games).where(games.c.id == game_id, games.c.status == "waiting")
    if (await conn.execute(statement.values(values))).rowcount != 1:
        await _refuse(conn, game_id, "start")


async def append_move(conn: AsyncConnection, game_id: str, move: MoveRecord) -> None:
    """Store ``move`` and the game's clocks, next ply and last seq after it.

    The conditional update comes first so that it locks the game's row: two writers of
    the same ply are serialised, and the second finds the ply taken.
    """
    statement = update(games).where(
        games.c.id == game_id, games.c.status == "running", games.c.plies == move.ply
    )
    values = {
        "plies": move.ply + 1,
        "last_seq": move.seq,
        "clock_at": move.at,
        **clock_values(move.clock),
    }
    if (await conn.execute(statement.values(values))).rowcount != 1:
        await _refuse_move(conn, game_id, move.ply)
    await conn.execute(
        insert(moves).values(
            game_id=game_id,
            ply=move.ply,
            move=move.move,
            side=move.side,
            think_ms=move.think_ms,
            **clock_values(move.clock),
            seq=move.seq,
            at=move.at,
        )
    )


async def end_game(
    conn: AsyncConnection,
    game_id: str,
    status: GameStatus,
    result: Result,
    clock: Clock | None,
    seq: int | None,
    at: datetime,
) -> None:
    """Close an unfinished game as ``finished`` or ``aborted`` with ``result``."""
    values = {"status": status, "finished_at": at, **result_values(result)}
    values.update(_optional_values(clock, seq))
    if clock is not None:
        values["clock_at"] = at
    statement = update(games).where(games.c.id == game_id, games.c.status.in_(UNFINISHED))
    if (await conn.execute(statement.values(values))).rowcount != 1:
        await _refuse(conn, game_id, "finish" if status == "finished" else "abort")


async def insert_chat(conn: AsyncConnection, line: ChatLine) -> None:
    """Add one chat line."""
    await conn.execute(
        insert(chat).values(
            room=line.room, seq=line.seq, author=line.author, text=line.text, at=line.at
        )
    )


async def insert_account(conn: AsyncConnection, name: str, token_hash: str, at: datetime) -> int:
    """Add an account and return its id."""
    result = await conn.execute(
        insert(accounts)
        .values(name=name, token_hash=token_hash, created_at=at, revoked=False)
        .returning(accounts.c.id)
    )
    return int(result.scalar_one())


async def revoke_account(conn: AsyncConnection, name: str) -> bool:
    """Mark an account's token revoked; ``False`` if no account has that name."""
    statement = update(accounts).where(accounts.c.name == name).values(revoked=True)
    return (await conn.execute(statement)).rowcount == 1


def _optional_values(clock: Clock | None, seq: int | None) -> dict[str, object]:
    values: dict[str, object] = {}
    if clock is not None:
        values.update(clock_values(clock))
    if seq is not None:
        values["last_seq"] = seq
    return values


async def _status_and_plies(conn: AsyncConnection, game_id: str) -> tuple[str, int]:
    query = select(games.c.status, games.c.plies).where(games.c.id == game_id)
    row = (await conn.execute(query)).one_or_none()
    if row is None:
        raise GameNotFoundError(game_id)
    return str(row.status), int(row.plies)


async def _refuse(conn: AsyncConnection, game_id: str, action: str) -> NoReturn:
    status, _ = await _status_and_plies(conn, game_id)
    raise GameStateError(game_id, status, action)


async def _refuse_move(conn: AsyncConnection, game_id: str, ply: int) -> NoReturn:
    status, plies = await _status_and_plies(conn, game_id)
    if ply < plies:
        raise DuplicateMoveError(game_id, ply)
    if status != "running":
        raise GameStateError(game_id, status, "record a move in")
    raise MoveOrderError(game_id, ply, plies)
