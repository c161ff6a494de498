"""People's reads and writes, each inside a transaction the caller opens."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    ColumnElement,
    RowMapping,
    and_,
    case,
    delete,
    exists,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_server.records.games import Account, GameInfo
from gamut_server.records.people import (
    Leader,
    PlayerRating,
    RatedGameSides,
    RatingStep,
    SkillPair,
    Tally,
)
from gamut_server.storage.convert import row_account, row_game
from gamut_server.storage.people_schema import player_rating_history, player_ratings, sessions
from gamut_server.storage.schema import accounts, games

ENDED = ("finished", "aborted")
"""The statuses of games that are over."""


async def set_password(conn: AsyncConnection, account_id: int, password_hash: str) -> bool:
    """Give an account a new password hash; ``False`` if there is no such account."""
    statement = update(accounts).where(accounts.c.id == account_id)
    result = await conn.execute(statement.values(password_hash=password_hash))
    return result.rowcount == 1


async def add_session(
    conn: AsyncConnection, id_hash: str, account_id: int, at: datetime, expires_at: datetime
) -> None:
    """Keep a new session (by the hash of its secret)."""
    row = {"id_hash": id_hash, "account_id": account_id, "created_at": at, "expires_at": expires_at}
    await conn.execute(insert(sessions).values(row))


async def session_account(conn: AsyncConnection, id_hash: str, now: datetime) -> Account | None:
    """The account of the unexpired session whose secret hashes to ``id_hash``."""
    query = (
        select(accounts)
        .join(sessions, sessions.c.account_id == accounts.c.id)
        .where(sessions.c.id_hash == id_hash, sessions.c.expires_at > now)
    )
    row = (await conn.execute(query)).mappings().first()
    return None if row is None else row_account(row)


async def end_sessions(
    conn: AsyncConnection, *, id_hash: str | None = None, account_id: int | None = None
) -> int:
    """Delete one session, or every session of an account, and the expired ones; how many
    went."""
    statement = delete(sessions)
    if id_hash is not None:
        statement = statement.where(sessions.c.id_hash == id_hash)
    if account_id is not None:
        statement = statement.where(sessions.c.account_id == account_id)
    return int((await conn.execute(statement)).rowcount)


async def drop_expired_sessions(conn: AsyncConnection, now: datetime) -> None:
    """Forget the sessions that have expired."""
    await conn.execute(delete(sessions).where(sessions.c.expires_at <= now))


async def ratings_of(conn: AsyncConnection, account_id: int) -> list[PlayerRating]:
    """Every rating of one account, the latest played first."""
    query = (
        select(player_ratings)
        .where(player_ratings.c.account_id == account_id)
        .order_by(player_ratings.c.last_played_at.desc())
    )
    return [_rating(row) for row in (await conn.execute(query)).mappings()]


async def rate_game(
    conn: AsyncConnection,
    sides: RatedGameSides,
    after: tuple[SkillPair, SkillPair],
    before: tuple[SkillPair, SkillPair],
    at: datetime,
) -> tuple[RatingStep, RatingStep]:
    """Store a rated game's two steps and the players' new ratings and records."""
    steps = tuple(
        RatingStep(
            game_id=sides.game_id,
            account_id=account,
            category=sides.category,
            side=side,
            score=_score(sides.winner, side),
            before=before[side],
            after=after[side],
            at=at,
        )
        for side, account in enumerate(sides.accounts)
    )
    for step in steps:
        await conn.execute(insert(player_rating_history).values(_history_row(step)))
        await _apply(conn, step)
    return steps[0], steps[1]


async def current_skills(
    conn: AsyncConnection, category: str, account_ids: tuple[int, int]
) -> tuple[SkillPair | None, SkillPair | None]:
    """Both players' ratings in ``category`` now (``None`` for a first game), the rows
    locked until the transaction ends where the database can."""
    query = (
        select(player_ratings.c.account_id, player_ratings.c.mu, player_ratings.c.sigma)
        .where(
            player_ratings.c.category == category,
            player_ratings.c.account_id.in_(account_ids),
        )
        .order_by(player_ratings.c.account_id)
        .with_for_update()
    )
    found = {row.account_id: (row.mu, row.sigma) for row in await conn.execute(query)}
    return found.get(account_ids[0]), found.get(account_ids[1])


async def game_rated(conn: AsyncConnection, game_id: str) -> bool:
    """Whether a game's rating history is stored."""
    query = select(player_rating_history.c.id).where(player_rating_history.c.game_id == game_id)
    return (await conn.execute(query.limit(1))).first() is not None


async def unrated_games(conn: AsyncConnection) -> list[GameInfo]:
    """Finished rated games between two accounts outside the ladder that have no rating
    history yet, oldest first."""
    rated = exists().where(player_rating_history.c.game_id == games.c.id)
    query = (
        select(games)
        .where(games.c.status == "finished", games.c.rated.is_(True), games.c.pool.is_(None))
        .where(games.c.p0_account.is_not(None), games.c.p1_account.is_not(None), ~rated)
        .order_by(games.c.finished_at, games.c.id)
    )
    return [row_game(row) for row in (await conn.execute(query)).mappings()]


async def history_of(
    conn: AsyncConnection, account_id: int, category: str | None
) -> list[RatingStep]:
    """One account's rating steps, oldest first (in one category if given)."""
    query = select(player_rating_history).where(player_rating_history.c.account_id == account_id)
    if category is not None:
        query = query.where(player_rating_history.c.category == category)
    query = query.order_by(player_rating_history.c.at, player_rating_history.c.id)
    return [_step(row) for row in (await conn.execute(query)).mappings()]


async def steps_in_games(
    conn: AsyncConnection, account_id: int, game_ids: list[str]
) -> list[RatingStep]:
    """One account's rating steps in the games ``game_ids``."""
    query = select(player_rating_history).where(
        player_rating_history.c.account_id == account_id,
        player_rating_history.c.game_id.in_(game_ids),
    )
    return [_step(row) for row in (await conn.execute(query)).mappings()]


async def game_steps(conn: AsyncConnection, game_id: str) -> list[RatingStep]:
    """The rating steps of one game, side 0 first."""
    query = (
        select(player_rating_history)
        .where(player_rating_history.c.game_id == game_id)
        .order_by(player_rating_history.c.side)
    )
    return [_step(row) for row in (await conn.execute(query)).mappings()]


async def leaders(
    conn: AsyncConnection, category: str, limit: int, max_sigma: float
) -> list[Leader]:
    """The best-rated accounts of ``category`` whose rating is no longer provisional."""
    query = (
        select(accounts.c.name, player_ratings)
        .join(accounts, accounts.c.id == player_ratings.c.account_id)
        .where(player_ratings.c.category == category, player_ratings.c.sigma <= max_sigma)
        .order_by(player_ratings.c.mu.desc(), accounts.c.name_key)
        .limit(limit)
    )
    return [Leader(row["name"], _rating(row)) for row in (await conn.execute(query)).mappings()]


async def categories_played(conn: AsyncConnection) -> list[tuple[str, int]]:
    """Every category someone is rated in, with how many are rated there, busiest first."""
    count = func.count().label("players")
    query = (
        select(player_ratings.c.category, count)
        .group_by(player_ratings.c.category)
        .order_by(count.desc(), player_ratings.c.category)
    )
    return [(row.category, int(row.players)) for row in await conn.execute(query)]


def _plays(account_id: int) -> ColumnElement[bool]:
    """Games where ``account_id`` has a seat."""
    return or_(games.c.p0_account == account_id, games.c.p1_account == account_id)


async def games_of(
    conn: AsyncConnection, account_id: int, limit: int, offset: int
) -> tuple[list[GameInfo], int]:
    """A page of one account's games that are over, newest first, and how many there are."""
    where = and_(_plays(account_id), games.c.status.in_(ENDED))
    total = (await conn.execute(select(func.count()).select_from(games).where(where))).scalar()
    query = (
        select(games)
        .where(where)
        .order_by(games.c.finished_at.desc(), games.c.id)
        .limit(limit)
        .offset(offset)
    )
    return [row_game(row) for row in (await conn.execute(query)).mappings()], int(total or 0)


async def tally_of(conn: AsyncConnection, account_id: int) -> Tally:
    """One account's wins, draws and losses over every finished game."""
    won = or_(
        and_(games.c.p0_account == account_id, games.c.winner == 0),
        and_(games.c.p1_account == account_id, games.c.winner == 1),
    )
    outcome = case((games.c.winner.is_(None), "draw"), (won, "win"), else_="loss")
    query = (
        select(outcome.label("outcome"), func.count().label("games"))
        .where(_plays(account_id), games.c.status == "finished")
        .group_by(outcome)
    )
    counts = {row.outcome: int(row.games) for row in await conn.execute(query)}
    return Tally(counts.get("win", 0), counts.get("draw", 0), counts.get("loss", 0))


async def unfinished_of(conn: AsyncConnection, account_id: int) -> list[str]:
    """The ids of one account's running games, oldest first."""
    query = (
        select(games.c.id)
        .where(_plays(account_id), games.c.status == "running")
        .order_by(games.c.created_at)
    )
    return [row.id for row in await conn.execute(query)]


async def _apply(conn: AsyncConnection, step: RatingStep) -> None:
    """Set one player's rating after a game and count the game in the category's record."""
    column = {1.0: "wins", 0.0: "losses"}.get(step.score, "draws")
    key = and_(
        player_ratings.c.account_id == step.account_id,
        player_ratings.c.category == step.category,
    )
    mu, sigma = step.after
    moved = await conn.execute(
        update(player_ratings)
        .where(key)
        .values(
            mu=mu,
            sigma=sigma,
            last_played_at=step.at,
            **{column: player_ratings.c[column] + 1},
        )
    )
    if moved.rowcount == 1:
        return
    counts = {"wins": 0, "draws": 0, "losses": 0, column: 1}
    await conn.execute(
        insert(player_ratings).values(
            account_id=step.account_id,
            category=step.category,
            mu=mu,
            sigma=sigma,
            last_played_at=step.at,
            **counts,
        )
    )


def _history_row(step: RatingStep) -> dict[str, object]:
    """One history row."""
    return {
        "game_id": step.game_id,
        "account_id": step.account_id,
        "category": step.category,
        "side": step.side,
        "score": step.score,
        "mu_before": step.before[0],
        "sigma_before": step.before[1],
        "mu_after": step.after[0],
        "sigma_after": step.after[1],
        "at": step.at,
    }


def _score(winner: int | None, side: int) -> float:
    """What a game scores for ``side``."""
    if winner is None:
        return 0.5
    return 1.0 if winner == side else 0.0


def _rating(values: RowMapping) -> PlayerRating:
    """A ratings row."""
    return PlayerRating(
        account_id=int(values["account_id"]),
        category=values["category"],
        mu=float(values["mu"]),
        sigma=float(values["sigma"]),
        wins=int(values["wins"]),
        draws=int(values["draws"]),
        losses=int(values["losses"]),
        last_played_at=values["last_played_at"],
    )


def _step(values: RowMapping) -> RatingStep:
    """A history row."""
    return RatingStep(
        game_id=values["game_id"],
        account_id=int(values["account_id"]),
        category=values["category"],
        side=int(values["side"]),
        score=float(values["score"]),
        before=(float(values["mu_before"]), float(values["sigma_before"])),
        after=(float(values["mu_after"]), float(values["sigma_after"])),
        at=values["at"],
    )
