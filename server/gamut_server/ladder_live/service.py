"""The ladder service: accounts signing in on this server, and the way to the queues.

Signing in is checked here, against the accounts in the store. The queues and the
pairing (:mod:`gamut_server.ladder_live.queues`) run on this server alone, or in a
cluster on the node leading the lobby only: every node tells that node what its
signed-in connections do (:class:`~gamut_server.ladder_live.ops.LadderOp`), so the
pools pair everyone once. When the lead moves, the new leader loads the queues from
the store and every node signs its connections in again there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from gamut_protocol import ErrorMessage
from gamut_protocol.errors import BAD_TOKEN
from gamut_server.core.driver import Driver
from gamut_server.edge.connection import Connection
from gamut_server.ladder.pairing import PairingRules
from gamut_server.ladder.pools import LadderSettings
from gamut_server.ladder.ratings import RatingModel
from gamut_server.ladder_live.ops import GameEnded, LadderOp, Session, SignedOut
from gamut_server.ladder_live.queues import LadderQueues
from gamut_server.ladder_live.registry import AccountRegistry
from gamut_server.ladder_live.settings import settings_from_env
from gamut_server.ladder_live.state import PoolState
from gamut_server.ladder_live.views import pool_json
from gamut_server.people.accounts import AccountBook
from gamut_server.rooms import Room, Who
from gamut_server.storage import Account, Store

log = logging.getLogger(__name__)

Forward = Callable[[LadderOp], Awaitable[bool]]
"""Sends an operation to the node running the queues; ``False`` if that is this one."""


class LadderService:
    """The ladder of a running server."""

    def __init__(
        self,
        settings: LadderSettings,
        store: Store,
        driver: Driver,
        book: AccountBook,
        connections: Mapping[int, Connection],
        *,
        ai_available: bool = True,
        model: RatingModel | None = None,
        rules: PairingRules | None = None,
        wall_ms: Callable[[], int] | None = None,
    ) -> None:
        """A ladder over ``settings.pools``; :meth:`start` loads it and starts pairing."""
        self.settings = settings
        self.store = store
        self.driver = driver
        self.connections = connections
        self.model = model or RatingModel()
        """Rates the games."""
        self._queue_options = (ai_available, rules, wall_ms)
        self.queues = self._new_queues()
        """The pools' queues (live on the node that runs them)."""
        self.registry = AccountRegistry(book)
        """Registers accounts and reissues or revokes their tokens."""
        self.signed_in: dict[int, Session] = {}
        """This server's connections signed in with an account."""
        self.forward: Forward | None = None
        """In a cluster: sends operations to the node running the queues."""
        self.leading: Callable[[], bool] = lambda: True
        """Whether this server runs the queues (in a cluster: leads the lobby)."""
        self.remote_pools: Callable[[], Awaitable[list[dict[str, Any]]]] | None = None
        """In a cluster: the pools' live figures from the node running the queues."""
        self._ticker: asyncio.Task[None] | None = None

    @property
    def pools(self) -> dict[str, PoolState]:
        """Each pool's live state, by id (as known on this server)."""
        return self.queues.pools

    async def pool_listing(self) -> list[dict[str, Any]]:
        """Every pool with its live figures, from wherever the queues run."""
        if self.remote_pools is not None and not self.leading():
            return await self.remote_pools()
        return [pool_json(state) for state in self.pools.values()]

    # --- life cycle ------------------------------------------------------------------

    async def start(self) -> None:
        """Load the queues and start pairing."""
        await self.queues.load()
        self._ticker = asyncio.create_task(self._tick_forever(), name="ladder-pairing")

    def take_lead(self) -> None:
        """This node runs the queues from now on: they are loaded afresh from the store
        (what they are told meanwhile waits for that)."""
        old, self.queues = self.queues, self._new_queues()
        old.queued.set()  # the pairing task waits on the old queues: wake it for these
        self.driver.spawn(self.queues.load(), name="ladder-load")

    def _new_queues(self) -> LadderQueues:
        """Queues with this ladder's settings, not loaded yet."""
        ai_available, rules, wall_ms = self._queue_options
        return LadderQueues(
            self.settings,
            self.store,
            self.driver,
            self.model,
            ai_available=ai_available,
            rules=rules,
            wall_ms=wall_ms,
        )

    async def close(self) -> None:
        """Stop pairing."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker

    async def _tick_forever(self) -> None:
        """Pair every tick (where the queues run) while anyone waits, until cancelled."""
        while True:
            await self._until_worth_a_tick()
            if not self.leading():
                continue
            try:
                await self.queues.tick()
            except Exception:
                log.exception("ladder pairing failed")

    async def _until_worth_a_tick(self) -> None:
        """Wait a tick if these queues run and someone waits in them; else until someone
        enters them (or this node takes the lead, with new queues)."""
        queues = self.queues
        if self.leading() and queues.anyone_waiting():
            await asyncio.sleep(self.settings.tick_ms / 1000)
            return
        queues.queued.clear()
        await queues.queued.wait()

    # --- signing in ------------------------------------------------------------------

    def sign_in(self, conn: Connection, account: Account) -> None:
        """``conn``'s ``hello`` signed in to ``account`` (the hub checked it): the
        connection may join pools under the account's name."""
        who = Who(conn=conn.id, name=account.name, kind=conn.kind, account=account.id)
        self.signed_in[conn.id] = Session(who, account.id)

    def session(self, conn: int) -> Session | None:
        """The session of one of this server's connections, if it signed in."""
        return self.signed_in.get(conn)

    def end_sessions(self, name: str, why: str) -> None:
        """Close this server's connections signed in as ``name`` (its token or its
        sessions stopped working), each told why with a fatal ``bad_token`` error; a
        client whose session is still good signs in again as it reconnects."""
        sentence = f"{why}: this connection is closed; sign in again"
        for conn in list(self.connections.values()):
            session = self.signed_in.get(conn.id)
            if session is not None and session.who.name == name:
                conn.send(ErrorMessage(code=BAD_TOKEN, message=sentence, fatal=True))
                conn.close_after_sent(sentence)

    # --- the queues ------------------------------------------------------------------

    async def tell(self, op: LadderOp) -> None:
        """Hand ``op`` to the queues, here or on the node that runs them."""
        if self.forward is not None and await self.forward(op):
            return
        await self.queues.apply(op)

    async def apply(self, op: LadderOp) -> None:
        """Apply ``op`` to the queues here (this node runs them)."""
        await self.queues.apply(op)

    def signed_out_where(self, gone: Callable[[int], bool]) -> None:
        """Sign every session whose connection ``gone`` says is lost (its node died) out
        of the queues here."""
        for conn in [conn for conn in self.queues.sessions if gone(conn)]:
            self.queues.signed_out(conn)

    def disconnected(self, conn: Connection) -> None:
        """A connection closed: forget its sign-in and tell the queues, without waiting."""
        if self.signed_in.pop(conn.id, None) is None:
            return
        op = SignedOut(conn.id)
        if self.leading():
            self.queues.signed_out(conn.id)
        else:
            self.driver.spawn(self.tell(op), name=f"signed-out-{conn.id}")

    def game_over(self, room: Room) -> None:
        """The driver's hook: a room's game ended; the queues rate it if it is a ladder game."""
        if room.spec.pool in self.queues.pools:
            self.driver.spawn(self.tell(GameEnded.of(room)), name=f"ladder-{room.room_id}")


__all__ = ["LadderService", "settings_from_env"]
