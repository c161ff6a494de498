"""The store's writes, each run inside a transaction that the caller opens and commits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NoReturn

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_protocol.common import name_key
from gamut_server.records.games import (
    UNFINISHED,
    ChatLine,
    Clock,
    GameStatus,
    MoveRecord,
    NewGame,
    Player,
    Result,
)
from gamut_server.storage.convert import clock_values, player_values, result_values
from gamut_server.storage.errors import (
    DuplicateMoveError,
    FencedError,
    GameNotFoundError,
    GameStateError,
    MoveOrderError,
    StorageError,
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


async def append_move(
    conn: AsyncConnection, game_id: str, move: MoveRecord, epoch: int | None = None
) -> None:
    """Store ``move`` and the game's clocks, next ply and last seq after it; with
    ``epoch``, only if the game is still at that epoch (:class:`FencedError` if not).

    The conditional update comes first so that it locks the game's row: two writers of
    the same ply are serialised, and the second finds the ply taken.
    """
    statement = update(games).where(
        games.c.id == game_id, games.c.status == "running", games.c.plies == move.ply
    )
    if epoch is not None:
        statement = statement.where(games.c.epoch == epoch)
    values = {
        "plies": move.ply + 1,
        "last_seq": move.seq,
        "clock_at": move.at,
        **clock_values(move.clock),
    }
    if (await conn.execute(statement.values(values))).rowcount != 1:
        await check_epoch(conn, game_id, epoch)
        if await _stored_already(conn, game_id, move):
            return
        await _refuse_move(conn, game_id, move.ply)
    await conn.execute(insert(moves).values(move_row(game_id, move)))


async def _stored_already(conn: AsyncConnection, game_id: str, move: MoveRecord) -> bool:
    """Whether this very move (same ply, move, side and seq) is stored: a write made
    again after its first commit's answer was lost, which is then a success."""
    query = select(moves.c.move, moves.c.side, moves.c.seq).where(
        moves.c.game_id == game_id, moves.c.ply == move.ply
    )
    row = (await conn.execute(query)).one_or_none()
    return row is not None and (row.move, row.side, row.seq) == (move.move, move.side, move.seq)


@dataclass(frozen=True, slots=True)
class Ending:
    """How a game ends with the move stored beside it (see :func:`append_last_move`)."""

    result: Result
    """The result."""
    clock: Clock | None
    """The clocks once stopped, for a timed game."""
    seq: int
    """The sequence number of the game's end."""


async def append_last_move(
    conn: AsyncConnection,
    game_id: str,
    move: MoveRecord,
    ending: Ending,
    at: datetime,
    epoch: int | None = None,
) -> None:
    """Store ``move`` and the game's end it brings, together: never one without the other."""
    await append_move(conn, game_id, move, epoch)
    await end_game(conn, game_id, "finished", ending.result, ending.clock, ending.seq, at, epoch)


class BatchRefusedError(StorageError):
    """A batch of moves cannot all be stored together; store them one by one instead."""


BATCH_GAME_UPDATE = (
    update(games)
    .where(games.c.id == bindparam("b_id"))
    .values(
        plies=bindparam("b_plies"),
        last_seq=bindparam("b_seq"),
        clock_at=bindparam("b_at"),
        clock0_ms=bindparam("b_clock0"),
        clock1_ms=bindparam("b_clock1"),
        to_move=bindparam("b_to_move"),
    )
)
"""A game's row after a move, from :func:`game_params` (the batch has checked the move)."""


async def append_moves(
    conn: AsyncConnection, batch: Sequence[tuple[str, MoveRecord, int | None]]
) -> None:
    """Store several ``(game_id, move, epoch)`` as :func:`append_move` one after the other
    would.

    Three statements whatever the batch's size: the games' rows are read (and locked
    on PostgreSQL), every move checked against them, then the games updated and the
    moves inserted, each with one multi-row statement. Raises
    :class:`BatchRefusedError` if any move would be refused, before writing anything.
    """
    ids = sorted({game_id for game_id, _, _ in batch})
    query = select(games.c.id, games.c.plies, games.c.epoch).where(
        games.c.id.in_(ids), games.c.status == "running"
    )
    rows = list(await conn.execute(query.with_for_update()))
    next_ply = {row.id: int(row.plies) for row in rows}
    epochs = {row.id: int(row.epoch) for row in rows}
    for game_id, move, epoch in batch:
        fenced = epoch is not None and epochs.get(game_id) != epoch
        if fenced or next_ply.get(game_id) != move.ply:
            raise BatchRefusedError(f"move {move.ply} of game {game_id!r} must be stored alone")
        next_ply[game_id] = move.ply + 1
    await conn.execute(
        BATCH_GAME_UPDATE, [game_params(game_id, move) for game_id, move, _ in batch]
    )
    await conn.execute(insert(moves), [move_row(game_id, move) for game_id, move, _ in batch])


def game_params(game_id: str, move: MoveRecord) -> dict[str, Any]:
    """The parameters of :data:`BATCH_GAME_UPDATE` for one move."""
    clock = clock_values(move.clock)
    return {
        "b_id": game_id,
        "b_plies": move.ply + 1,
        "b_seq": move.seq,
        "b_at": move.at,
        "b_clock0": clock["clock0_ms"],
        "b_clock1": clock["clock1_ms"],
        "b_to_move": clock["to_move"],
    }


def move_row(game_id: str, move: MoveRecord) -> dict[str, Any]:
    """One moves row."""
    return {
        "game_id": game_id,
        "ply": move.ply,
        "move": move.move,
        "side": move.side,
        "think_ms": move.think_ms,
        **clock_values(move.clock),
        "seq": move.seq,
        "at": move.at,
    }


async def end_game(
    conn: AsyncConnection,
    game_id: str,
    status: GameStatus,
    result: Result,
    clock: Clock | None,
    seq: int | None,
    at: datetime,
    epoch: int | None = None,
) -> None:
    """Close an unfinished game as ``finished`` or ``aborted`` with ``result``; with
    ``epoch``, only if the game is still at that epoch (:class:`FencedError` if not)."""
    values = {"status": status, "finished_at": at, **result_values(result)}
    values.update(_optional_values(clock, seq))
    if clock is not None:
        values["clock_at"] = at
    statement = update(games).where(games.c.id == game_id, games.c.status.in_(UNFINISHED))
    if epoch is not None:
        statement = statement.where(games.c.epoch == epoch)
    if (await conn.execute(statement.values(values))).rowcount != 1:
        await check_epoch(conn, game_id, epoch)
        if await _ended_already(conn, game_id, status, result):
            return
        await _refuse(conn, game_id, "finish" if status == "finished" else "abort")


async def _ended_already(
    conn: AsyncConnection, game_id: str, status: GameStatus, result: Result
) -> bool:
    """Whether the game already ended this very way: a write made again after its
    first commit's answer was lost, which is then a success."""
    query = select(games.c.status, games.c.winner, games.c.reason).where(games.c.id == game_id)
    row = (await conn.execute(query)).one_or_none()
    return row is not None and (row.status, row.winner, row.reason) == (
        status,
        result.winner,
        result.reason,
    )


async def insert_chat(conn: AsyncConnection, line: ChatLine, epoch: int | None = None) -> None:
    """Add one chat line; with ``epoch``, only if its room's game is still at that epoch
    (:class:`FencedError` if not). The game's row is locked first, as a move locks it,
    so a claim of the game and the line are serialised."""
    if epoch is not None:
        held = update(games).where(games.c.id == line.room, games.c.epoch == epoch)
        if (await conn.execute(held.values(epoch=games.c.epoch))).rowcount != 1:
            await check_epoch(conn, line.room, epoch)
    await conn.execute(
        insert(chat).values(
            room=line.room, seq=line.seq, author=line.author, text=line.text, at=line.at
        )
    )


async def insert_account(
    conn: AsyncConnection,
    name: str,
    token_hash: str | None,
    password_hash: str | None,
    at: datetime,
) -> int:
    """Add an account (its name unique whatever its case) and return its id."""
    values = {
        "name": name,
        "name_key": name_key(name),
        "token_hash": token_hash,
        "password_hash": password_hash,
        "created_at": at,
        "revoked": False,
    }
    result = await conn.execute(insert(accounts).values(values).returning(accounts.c.id))
    return int(result.scalar_one())


async def revoke_account(conn: AsyncConnection, name: str) -> bool:
    """Mark an account's token revoked; ``False`` if no account has that name."""
    statement = update(accounts).where(accounts.c.name == name).values(revoked=True)
    return (await conn.execute(statement)).rowcount == 1


async def check_epoch(conn: AsyncConnection, game_id: str, epoch: int | None) -> None:
    """Raise :class:`FencedError` if ``epoch`` is given and the game is at another one."""
    if epoch is None:
        return
    current = (await conn.execute(select(games.c.epoch).where(games.c.id == game_id))).scalar()
    if current is not None and int(current) != epoch:
        raise FencedError(game_id, epoch, int(current))


async def claim_game(conn: AsyncConnection, game_id: str, owner: str) -> int:
    """Make ``owner`` the holder of an unfinished game at its next epoch; that epoch.

    Every write made with an earlier epoch is refused from this transaction's commit on.
    """
    statement = (
        update(games)
        .where(games.c.id == game_id, games.c.status.in_(UNFINISHED))
        .values(epoch=games.c.epoch + 1, owner=owner)
        .returning(games.c.epoch)
    )
    epoch = (await conn.execute(statement)).scalar()
    if epoch is None:
        await _refuse(conn, game_id, "take over")
    return int(epoch)


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
