"""People's ratings on a running server: each rated game rated as it ends, its room told.

The driver calls :meth:`LiveRatings.game_over` once a room's game has ended and been
stored; the game is rated in a task, and the room, if it is still in memory, sends
``game_rated`` to everyone following it. A rating the database cannot take (a restart,
a locked file) is tried again while the server runs, after :data:`RETRY_DELAYS_S` and
then every :data:`RETRY_EVERY_S`; when the server starts, the games that ended while no
server could rate them are rated first.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Final

from sqlalchemy.exc import DBAPIError

from gamut_protocol import GameRated
from gamut_server.core.driver import Driver
from gamut_server.people.rating import PeopleRatings
from gamut_server.rooms import Room
from gamut_server.storage import StorageUnavailableError

log = logging.getLogger(__name__)

RETRY_DELAYS_S: tuple[float, ...] = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Seconds between the first tries of a rating the database could not take."""

RETRY_EVERY_S = 60.0
"""Seconds between later tries, for as long as the server runs."""

NOT_TAKEN: Final = (StorageUnavailableError, DBAPIError, OSError)
"""What the database raises when it cannot take a rating for now."""


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
        """Rate the stored game ``room_id`` and tell its room; try again while the
        database cannot take it."""
        for tries in itertools.count(1):
            try:
                rating = await self.ratings.rate(await self.ratings.store.game_info(room_id))
            except NOT_TAKEN as error:
                pause = RETRY_DELAYS_S[tries - 1] if tries <= len(RETRY_DELAYS_S) else RETRY_EVERY_S
                log.warning(
                    "rating game %s failed (%s): tried again in %g s", room_id, error, pause
                )
                await asyncio.sleep(pause)
                continue
            except Exception:
                log.exception("rating game %s failed", room_id)
                return
            if tries > 1:
                log.warning("game %s rated at try %d", room_id, tries)
            if rating is not None:
                await self._tell(rating)
            return

    async def _tell(self, rating: GameRated) -> None:
        """Let the rated game's room, if in memory here, tell everyone following it."""
        await self.driver.room_call(rating.room_id, lambda room: room.rated(rating))
