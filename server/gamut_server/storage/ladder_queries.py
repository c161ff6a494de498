"""The ladder's reads and writes, each inside a transaction the caller opens."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import RowMapping, and_, exists, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_server.records.games import GameInfo
from gamut_server.records.ladder import (
    HistoryRow,
    Membership,
    QueueEvent,
    QueueRecord,
    RatingRow,
    RatingUpdate,
)
from gamut_server.storage.convert import row_game
from gamut_server.storage.ladder_schema import (
    ladder_history,
    ladder_members,
    ladder_queue,
    ladder_ratings,
)
from gamut_server.storage.schema import accounts, games


async def reissue_account(conn: AsyncConnection, name: str, token_hash: str) -> bool:
    """Give an account a new token hash and lift a revocation; ``False`` if none."""
    statement = update(accounts).where(accounts.c.name == name)
    result = await conn.execute(statement.values(token_hash=token_hash, revoked=False))
    return result.rowcount == 1


async def add_history(
    conn: AsyncConnection,
    game_id: str,
    pool: str,
    updates: tuple[RatingUpdate, RatingUpdate],
    at: datetime,
) -> None:
    """The two history rows of a rated game (the unique key refuses a second rating)."""
    for update_, other in ((updates[0], updates[1]), (updates[1], updates[0])):
        await conn.execute(
            insert(ladder_history).values(
                game_id=game_id,
                pool=pool,
                name=update_.name,
                side=update_.side,
                opponent=other.name,
                score=update_.score,
                mu_before=update_.before[0],
                sigma_before=update_.before[1],
                mu_after=update_.after[0],
                sigma_after=update_.after[1],
                at=at,
            )
        )


async def apply_rating(
    conn: AsyncConnection, pool: str, change: RatingUpdate, at: datetime
) -> None:
    """Set one player's rating after a game and count the game in its record."""
    key = and_(ladder_ratings.c.pool == pool, ladder_ratings.c.name == change.name)
    column = {1.0: "wins", 0.0: "losses"}.get(change.score, "draws")
    row = (await conn.execute(select(ladder_ratings).where(key))).mappings().first()
    mu, sigma = change.after
    colour = 1 if change.side == 0 else -1
    if row is None:
        values: dict[str, Any] = {"wins": 0, "draws": 0, "losses": 0, column: 1}
        await conn.execute(
            insert(ladder_ratings).values(
                pool=pool,
                name=change.name,
                kind=change.kind,
                account_id=change.account_id,
                mu=mu,
                sigma=sigma,
                first_side=colour,
                last_played_at=at,
                **values,
            )
        )
        return
    await conn.execute(
        update(ladder_ratings)
        .where(key)
        .values(
            mu=mu,
            sigma=sigma,
            first_side=row["first_side"] + colour,
            last_played_at=at,
            **{column: row[column] + 1},
        )
    )


async def ratings(conn: AsyncConnection, pool: str | None) -> list[RatingRow]:
    """Every rating of ``pool`` (``None``: of all pools)."""
    query = select(ladder_ratings)
    if pool is not None:
        query = query.where(ladder_ratings.c.pool == pool)
    rows = await conn.execute(query.order_by(ladder_ratings.c.pool, ladder_ratings.c.name))
    return [_rating(row) for row in rows.mappings()]


def _rating(row: RowMapping) -> RatingRow:
    return RatingRow(
        pool=row["pool"],
        name=row["name"],
        kind=row["kind"],
        mu=row["mu"],
        sigma=row["sigma"],
        wins=row["wins"],
        draws=row["draws"],
        losses=row["losses"],
        first_side=row["first_side"],
        account_id=row["account_id"],
        last_played_at=row["last_played_at"],
    )


async def history(
    conn: AsyncConnection, pool: str, name: str | None, since: datetime | None
) -> list[HistoryRow]:
    """The rating changes in ``pool``, oldest first, of one player or all, since a time."""
    query = select(ladder_history).where(ladder_history.c.pool == pool)
    if name is not None:
        query = query.where(ladder_history.c.name == name)
    if since is not None:
        query = query.where(ladder_history.c.at >= since)
    result = await conn.execute(query.order_by(ladder_history.c.id))
    return [
        HistoryRow(
            game_id=row["game_id"],
            pool=row["pool"],
            name=row["name"],
            side=row["side"],
            opponent=row["opponent"],
            score=row["score"],
            before=(row["mu_before"], row["sigma_before"]),
            after=(row["mu_after"], row["sigma_after"]),
            at=row["at"],
        )
        for row in result.mappings()
    ]


async def unrated_games(conn: AsyncConnection) -> list[GameInfo]:
    """Finished rated games of a pool that have no rating history yet, oldest first."""
    rated = exists().where(ladder_history.c.game_id == games.c.id)
    query = (
        select(games)
        .where(games.c.status == "finished", games.c.rated.is_(True), games.c.pool.is_not(None))
        .where(~rated)
        .order_by(games.c.finished_at, games.c.id)
    )
    return [row_game(row) for row in (await conn.execute(query)).mappings()]


async def set_membership(
    conn: AsyncConnection,
    pool: str,
    name: str,
    account_id: int | None,
    member: bool,
    at: datetime,
) -> None:
    """Record that ``name`` joined (``member``) or left ``pool`` at ``at``."""
    key = and_(ladder_members.c.pool == pool, ladder_members.c.name == name)
    found = (await conn.execute(select(ladder_members.c.name).where(key))).first()
    moment = {"joined_at": at} if member else {"left_at": at}
    if found is None:
        await conn.execute(
            insert(ladder_members).values(
                pool=pool,
                name=name,
                account_id=account_id,
                member=member,
                joined_at=at,
                left_at=None if member else at,
                last_seen_at=at,
            )
        )
    else:
        await conn.execute(
            update(ladder_members).where(key).values(member=member, last_seen_at=at, **moment)
        )


async def seen(conn: AsyncConnection, name: str, at: datetime) -> None:
    """Note that ``name`` was connected at ``at`` (in every pool it belongs to)."""
    await conn.execute(
        update(ladder_members)
        .where(ladder_members.c.name == name, ladder_members.c.member.is_(True))
        .values(last_seen_at=at)
    )


async def memberships(
    conn: AsyncConnection, pool: str | None, name: str | None
) -> list[Membership]:
    """The memberships of one pool and/or one player (left ones included)."""
    query = select(ladder_members)
    if pool is not None:
        query = query.where(ladder_members.c.pool == pool)
    if name is not None:
        query = query.where(ladder_members.c.name == name)
    result = await conn.execute(query.order_by(ladder_members.c.pool, ladder_members.c.name))
    return [
        Membership(
            pool=row["pool"],
            name=row["name"],
            member=row["member"],
            joined_at=row["joined_at"],
            left_at=row["left_at"],
            last_seen_at=row["last_seen_at"],
        )
        for row in result.mappings()
    ]


async def add_queue_event(conn: AsyncConnection, record: QueueRecord) -> None:
    """Append one event to a pool's queue history."""
    await conn.execute(
        insert(ladder_queue).values(
            pool=record.pool,
            name=record.name,
            event=record.event,
            game_id=record.game_id,
            wait_ms=record.wait_ms,
            at=record.at,
        )
    )


async def queue_events(
    conn: AsyncConnection, pool: str, name: str | None, limit: int | None
) -> list[QueueRecord]:
    """A pool's queue history, oldest first (the latest ``limit`` events if given)."""
    query = select(ladder_queue).where(ladder_queue.c.pool == pool)
    if name is not None:
        query = query.where(ladder_queue.c.name == name)
    query = query.order_by(ladder_queue.c.id.desc())
    if limit is not None:
        query = query.limit(limit)
    rows = list((await conn.execute(query)).mappings())
    return [
        QueueRecord(
            pool=row["pool"],
            name=row["name"],
            event=cast(QueueEvent, row["event"]),
            at=row["at"],
            game_id=row["game_id"],
            wait_ms=row["wait_ms"],
        )
        for row in reversed(rows)
    ]
