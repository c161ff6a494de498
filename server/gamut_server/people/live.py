"""People's ratings on a running server: each rated game rated as it ends, its room told.

The driver calls :meth:`LiveRatings.game_over` once a room's game has ended and been
stored; the game is rated in a task, and the room, if it is still in memory, sends
``game_rated`` to everyone following it. When the server starts, the games that ended
while it could not rate them are rated first.
"""

from __future__ import annotations

import logging

from gamut_protocol import GameRated
from gamut_server.core.driver import Driver
from gamut_server.people.rating import PeopleRatings
from gamut_server.rooms import Room

log = logging.getLogger(__name__)


class LiveRatings:
    """Rates people's games as they end, on this server."""

    def __init__(self, ratings: PeopleRatings, driver: Driver) -> None:
        """Games rated by ``ratings``, rooms reached through ``driver``."""
        self.ratings = ratings
        self.driver = driver

    def game_over(self, room: Room) -> None:
        """A room's game ended: rate it if it is a rated game between people."""
        spec = room.spec
        if spec.rated and spec.pool is None:
            self.driver.spawn(self._rate(room.room_id), name=f"rate-{room.room_id}")

    async def catch_up(self) -> None:
        """Rate the games that ended while the server could not (and tell their rooms)."""
        for rating in await self.ratings.catch_up():
            await self._tell(rating)

    async def _rate(self, room_id: str) -> None:
        """Rate the stored game ``room_id`` and tell its room."""
        try:
            rating = await self.ratings.rate(await self.ratings.store.game_info(room_id))
        except Exception:
            log.exception("rating game %s failed", room_id)
            return
        if rating is not None:
            await self._tell(rating)

    async def _tell(self, rating: GameRated) -> None:
        """Let the rated game's room, if in memory here, tell everyone following it."""
        await self.driver.room_call(rating.room_id, lambda room: room.rated(rating))
