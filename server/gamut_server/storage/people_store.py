"""People's part of the :class:`~gamut_server.storage.Store`: passwords, sessions, ratings
per category with their history, and each account's games.

:class:`PeopleStorage` is a mixin of :class:`Store`; every write is one transaction that
has committed when the call returns.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_server.records.games import Account, GameInfo, GamePage
from gamut_server.records.people import (
    Leader,
    PlayerRating,
    RatedGameSides,
    Rater,
    RatingStep,
    SkillPair,
    Tally,
)
from gamut_server.storage import people_queries as queries
from gamut_server.storage.errors import StorageError
from gamut_server.storage.mixin import StoreMixin

RATING_ATTEMPTS = 3
"""Tries at rating one game when another transaction rated one of its players first."""


class GameAlreadyRatedError(StorageError):
    """The game's rating is stored already."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} is already rated")
        self.game_id = game_id
        """The game."""


class PeopleStorage(StoreMixin):
    """People's methods of the store."""

    async def set_password(self, account_id: int, password_hash: str) -> bool:
        """Replace an account's password hash; ``False`` if there is no such account."""
        return await self._transact(
            lambda conn: queries.set_password(conn, account_id, password_hash)
        )

    async def add_session(self, id_hash: str, account_id: int, expires_at: datetime) -> None:
        """Keep a new sign-in session by the hash of its secret (expired ones are dropped)."""
        now = datetime.now(UTC)

        async def add(conn: AsyncConnection) -> None:
            await queries.drop_expired_sessions(conn, now)
            await queries.add_session(conn, id_hash, account_id, now, expires_at)

        await self._transact(add)

    async def session_account(self, id_hash: str) -> Account | None:
        """The account signed in by the live session whose secret hashes to ``id_hash``."""
        async with self._read() as conn:
            return await queries.session_account(conn, id_hash, datetime.now(UTC))

    async def end_session(self, id_hash: str) -> None:
        """Sign one session out."""
        await self._transact(lambda conn: queries.end_sessions(conn, id_hash=id_hash))

    async def end_account_sessions(self, account_id: int) -> int:
        """Sign every session of an account out; how many there were."""
        return await self._transact(lambda conn: queries.end_sessions(conn, account_id=account_id))

    async def player_ratings(self, account_id: int) -> list[PlayerRating]:
        """Every rating of one account, the latest played first."""
        async with self._read() as conn:
            return await queries.ratings_of(conn, account_id)

    async def rate_people_game(
        self,
        sides: RatedGameSides,
        rater: Rater,
        initial: SkillPair,
        *,
        at: datetime | None = None,
    ) -> tuple[RatingStep, RatingStep]:
        """Rate a game between two accounts from their ratings now (``initial`` for a
        first game in the category), and store it all at once: the history and both new
        ratings. Raises :class:`GameAlreadyRatedError` if the game was rated before."""
        at = datetime.now(UTC) if at is None else at

        async def rate(conn: AsyncConnection) -> tuple[RatingStep, RatingStep]:
            now = await queries.current_skills(conn, sides.category, sides.accounts)
            before = (now[0] or initial, now[1] or initial)
            after = rater(before[0], before[1])
            return await queries.rate_game(conn, sides, after, before, at)

        for attempt in range(RATING_ATTEMPTS):
            try:
                return await self._transact(rate)
            except IntegrityError:
                async with self._read() as conn:
                    if await queries.game_rated(conn, sides.game_id):
                        raise GameAlreadyRatedError(sides.game_id) from None
                if attempt == RATING_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def unrated_people_games(self) -> list[GameInfo]:
        """Finished rated games between accounts, outside the ladder, not rated yet (the
        server stopped first), oldest first."""
        async with self._read() as conn:
            return await queries.unrated_games(conn)

    async def rating_steps(
        self, account_id: int, *, category: str | None = None
    ) -> list[RatingStep]:
        """One account's rating steps, oldest first (in one category if given)."""
        async with self._read() as conn:
            return await queries.history_of(conn, account_id, category)

    async def rating_steps_in(self, account_id: int, game_ids: list[str]) -> list[RatingStep]:
        """One account's rating steps in the games ``game_ids``."""
        if not game_ids:
            return []
        async with self._read() as conn:
            return await queries.steps_in_games(conn, account_id, game_ids)

    async def game_rating_steps(self, game_id: str) -> list[RatingStep]:
        """The rating steps of one game (none if it was not rated), side 0 first."""
        async with self._read() as conn:
            return await queries.game_steps(conn, game_id)

    async def leaders(self, category: str, *, limit: int, max_sigma: float) -> list[Leader]:
        """The best-rated accounts of a category whose uncertainty is at most ``max_sigma``."""
        async with self._read() as conn:
            return await queries.leaders(conn, category, limit, max_sigma)

    async def rated_categories(self) -> list[tuple[str, int]]:
        """Every category someone is rated in, and how many are, busiest first."""
        async with self._read() as conn:
            return await queries.categories_played(conn)

    async def account_games(self, account_id: int, *, limit: int, offset: int) -> GamePage:
        """A page of one account's games that are over, newest first."""
        async with self._read() as conn:
            found, total = await queries.games_of(conn, account_id, limit, offset)
        return GamePage(games=tuple(found), total=total, offset=offset, limit=limit)

    async def account_tally(self, account_id: int) -> Tally:
        """One account's wins, draws and losses over every finished game."""
        async with self._read() as conn:
            return await queries.tally_of(conn, account_id)

    async def account_running_games(self, account_id: int) -> list[str]:
        """The ids of one account's running games, oldest first."""
        async with self._read() as conn:
            return await queries.unfinished_of(conn, account_id)
