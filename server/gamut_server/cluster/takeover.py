"""Taking rooms over: a dead node's rooms, and at start the rooms nobody owns.

A room is brought back from the database as after a restart
(:func:`gamut_server.core.recovery.restore`): its moves replayed, its clocks restarted from
the stored ones, so the outage is charged to nobody, and its players given the grace
period to come back. Only the node whose compare-and-set on the room's key succeeds
restores it, so a room never lives on two nodes. Before it reads the game, that node
claims it in the database (:meth:`~gamut_server.storage.Store.claim_game`): the game's
epoch moves on, and the node it was taken from, if it still runs (paused past its
lease, or cut off from Redis), can write no move in it any more.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Final

from gamut_server.cluster.directory import Directory
from gamut_server.core.driver import Driver
from gamut_server.core.identity import Names, TokenDigest
from gamut_server.core.recovery import restore
from gamut_server.records.games import UNFINISHED
from gamut_server.storage import GameNotFoundError, GameStateError, Store

log = logging.getLogger(__name__)

TAKEOVER_LOCK_S: Final = 60.0
"""Seconds one node has to take a dead node's rooms over before another may try."""

Alive = Callable[[int], Awaitable[bool]]
"""Whether a node is alive."""


class Takeover:
    """Brings rooms other nodes no longer hold onto this node."""

    def __init__(self, driver: Driver, directory: Directory, names: Names, owner: str) -> None:
        """Rooms restored into ``driver``; their guests' names bound again in ``names``;
        ``owner`` is this node's name, as the database records who holds a game."""
        self.owner = owner
        self.driver = driver
        self.store: Store = driver.store
        self.directory = directory
        self.names = names
        self.restoring: set[str] = set()
        """Rooms this node owns already but is still reading back: what other nodes send
        them waits until the takeover is announced."""

    async def dead_node(self, node: int) -> tuple[list[str], bool] | None:
        """Take dead node ``node``'s rooms over: the ids of those restored here, and
        whether that is all of them; ``None`` if another node is doing it.

        A room that cannot be read back (the database failing) is handed back to the
        dead node's name, and the whole takeover is tried again at the next heartbeat."""
        if not await self.directory.lock_takeover(node, TAKEOVER_LOCK_S):
            return None
        taken, left = [], []
        for room_id in sorted(await self.directory.rooms_of(node)):
            self.restoring.add(room_id)
            if await self.directory.take(room_id, node):
                try:
                    if await self.bring_back(room_id):
                        taken.append(room_id)
                        continue
                except Exception:
                    log.exception("room %s could not be read back: tried again later", room_id)
                    await self.directory.hand_back(room_id, node)
                    left.append(room_id)
            self.restoring.discard(room_id)
        if left:
            await self.directory.unlock_takeover(node)
        else:
            await self.directory.forget_node(node)
        log.warning("node %d is gone: %d of its room(s) now live here", node, len(taken))
        return taken, not left

    async def orphans(self, alive: Alive) -> list[str]:
        """Take over every unfinished game whose owner is gone or was never recorded
        (the whole cluster stopped, say): the ids restored here."""
        taken = []
        for room_id in await self.store.unfinished_ids():
            if room_id in self.driver.rooms:
                continue
            owner = await self.directory.owner(room_id)
            if owner is not None and await alive(owner):
                continue
            if await self.directory.take(room_id, owner) and await self.bring_back(room_id):
                taken.append(room_id)
        if taken:
            log.info("took over %d unfinished game(s) nobody held", len(taken))
        return taken

    async def bring_back(self, room_id: str) -> bool:
        """Restore one room from the database; ``False`` (its key released) if it is not
        unfinished there or cannot be replayed."""
        try:
            epoch = await self.store.claim_game(room_id, self.owner)
            record = await self.store.game(room_id)
        except (GameNotFoundError, GameStateError):
            record, epoch = None, None
        if (
            record is None
            or record.info.status not in UNFINISHED
            or not await restore(self.driver, record, epoch)
        ):
            await self.directory.release(room_id)
            return False
        seated = [seat.name for seat in record.info.players if seat and seat.kind != "ai"]
        for name, stored in (await self.store.guest_claim_hashes(set(seated))).items():
            self.names.restore(name, TokenDigest.parse(stored))
        return True
