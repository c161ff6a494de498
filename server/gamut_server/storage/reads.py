"""The store's queries.

A game's moves are read after its row and cut at the row's ``plies``: a move is
committed together with that count, so a game and its moves read this way always
agree, even while another task is writing.
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_protocol.common import name_key
from gamut_server.records.games import (
    UNFINISHED,
    Account,
    ChatLine,
    GameInfo,
    GamePage,
    GameRecord,
    MoveRecord,
)
from gamut_server.storage.convert import row_account, row_chat, row_game, row_move
from gamut_server.storage.schema import accounts, chat, games, moves


async def game_info(conn: AsyncConnection, game_id: str) -> GameInfo | None:
    """The game with ``game_id``, or ``None``."""
    row = (await conn.execute(select(games).where(games.c.id == game_id))).mappings().first()
    return None if row is None else row_game(row)


async def game_moves(conn: AsyncConnection, info: GameInfo) -> tuple[MoveRecord, ...]:
    """The moves of one game, in ply order."""
    query = (
        select(moves)
        .where(moves.c.game_id == info.id, moves.c.ply < info.plies)
        .order_by(moves.c.ply)
    )
    return tuple(row_move(row) for row in (await conn.execute(query)).mappings())


async def unfinished_games(conn: AsyncConnection) -> list[GameRecord]:
    """Every waiting or running game with its moves, oldest first."""
    query = select(games).where(games.c.status.in_(UNFINISHED))
    result = await conn.execute(query.order_by(games.c.created_at, games.c.id))
    infos = [row_game(row) for row in result.mappings()]
    by_game: defaultdict[str, list[MoveRecord]] = defaultdict(list)
    move_query = (
        select(moves)
        .join(games, games.c.id == moves.c.game_id)
        .where(games.c.status.in_(UNFINISHED))
        .order_by(moves.c.game_id, moves.c.ply)
    )
    for row in (await conn.execute(move_query)).mappings():
        by_game[row["game_id"]].append(row_move(row))
    return [GameRecord(info=info, moves=tuple(by_game[info.id][: info.plies])) for info in infos]


async def unfinished_ids(conn: AsyncConnection, player: str | None = None) -> list[str]:
    """The ids of the waiting or running games (``player``'s only, if given), oldest first."""
    query = select(games.c.id).where(games.c.status.in_(UNFINISHED))
    if player is not None:
        query = query.where(or_(games.c.p0_name == player, games.c.p1_name == player))
    result = await conn.execute(query.order_by(games.c.created_at, games.c.id))
    return [row[0] for row in result]


def _finished_filter(game: str | None, player: str | None) -> ColumnElement[bool]:
    conditions: list[ColumnElement[bool]] = [games.c.status == "finished"]
    if game is not None:
        conditions.append(games.c.game == game)
    if player is not None:
        conditions.append(or_(games.c.p0_name == player, games.c.p1_name == player))
    return and_(*conditions)


async def finished_games(
    conn: AsyncConnection, game: str | None, player: str | None, limit: int, offset: int
) -> GamePage:
    """One page of finished games, newest first, optionally of one game or one player."""
    condition = _finished_filter(game, player)
    count = select(func.count()).select_from(games).where(condition)
    total = (await conn.execute(count)).scalar_one()
    query = (
        select(games)
        .where(condition)
        .order_by(games.c.finished_at.desc(), games.c.id.desc())
        .limit(limit)
        .offset(offset)
    )
    rows = (await conn.execute(query)).mappings()
    return GamePage(
        games=tuple(row_game(row) for row in rows), total=int(total), offset=offset, limit=limit
    )


async def chat_lines(
    conn: AsyncConnection, room: str, after_seq: int, limit: int | None
) -> list[ChatLine]:
    """A room's chat lines with a sequence number above ``after_seq``, in order."""
    query = select(chat).where(chat.c.room == room, chat.c.seq > after_seq).order_by(chat.c.seq)
    if limit is not None:
        query = query.limit(limit)
    return [row_chat(row) for row in (await conn.execute(query)).mappings()]


async def account(conn: AsyncConnection, name: str) -> Account | None:
    """The account called ``name`` whatever its case, or ``None``; an account registered
    before names were one whatever their case answers only to its exact spelling."""
    query = select(accounts).where(
        or_(accounts.c.name_key == name_key(name), accounts.c.name == name)
    )
    rows = [row_account(row) for row in (await conn.execute(query)).mappings()]
    exact = [found for found in rows if found.name == name]
    folded = [found for found in rows if found.name_key == name_key(name)]
    chosen = exact or folded
    return chosen[0] if chosen else None


async def account_by_id(conn: AsyncConnection, account_id: int) -> Account | None:
    """The account with id ``account_id``, or ``None``."""
    query = select(accounts).where(accounts.c.id == account_id)
    row = (await conn.execute(query)).mappings().first()
    return None if row is None else row_account(row)
