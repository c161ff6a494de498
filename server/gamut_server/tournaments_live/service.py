"""Tournaments on a running server: entering and withdrawing, and when the director
(:mod:`gamut_server.tournaments_live.director`) looks at them.

Everything a tournament is lives in the store (:mod:`gamut_server.storage.tournaments`):
any node writes an entry or a withdrawal, and the director, which runs on this server
alone or, in a cluster, only on the node leading the lobby (as the ladder's pairing
does), reads the tournaments back at every look: every tick while one is being played,
at the next one's start while they are all upcoming (alone, every 5 s at least), and
otherwise only when woken (a tournament created, entered or started on any node, or the
end of a game while one is being played); in a cluster also every 30 s at least. So a new
leader carries on where the old one stopped, with nothing to hand over: games being
played are read back from the store, and a round robin's schedule was written when it
started.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime

from gamut_protocol import TournamentStatus
from gamut_protocol.errors import (
    NOT_AUTHENTICATED,
    UNAVAILABLE,
    UNKNOWN_TOURNAMENT,
)
from gamut_server.core.driver import Driver
from gamut_server.ladder_live.ops import Session
from gamut_server.records.tournaments import Entrant, TournamentRecord
from gamut_server.rooms import Who
from gamut_server.storage import Store
from gamut_server.tournaments.settings import EntryRefusedError
from gamut_server.tournaments_live.director import Director, ends_at
from gamut_server.tournaments_live.pairing import tournament_status

log = logging.getLogger(__name__)

LEAD_SETTLE_MAX_S = 30.0
"""How long at most a node that has just taken the lead waits for the other nodes to
sign their connections in again before it directs (a node that never does is dying)."""

LEAD_SETTLE_POLL_S = 0.1
"""How often it looks meanwhile."""

CLUSTER_LOOK_S = 30.0
"""In a cluster, the longest the director waits between looks with no tournament being
played (or its tick, if longer): a node's word that one was created or started may be
lost (Redis drops messages to a node cut off for a moment), or never sent (a node of the
release before)."""

ALONE_LOOK_S = 5.0
"""On a server alone, the longest the director waits between looks while a tournament
is unfinished and none is being played: a word to look that came between a look's
reading and its deciding when to look next would otherwise wait for the next start."""


class TournamentService:
    """The tournaments of a running server."""

    def __init__(
        self,
        store: Store,
        driver: Driver,
        sessions: Callable[[], Mapping[int, Session]],
        *,
        tick_ms: int | None = None,
        grace_ms: int | None = None,
        wall: Callable[[], datetime] | None = None,
    ) -> None:
        """Tournaments kept in ``store``, games opened through ``driver``, players found
        among ``sessions()`` (the signed-in connections of every node, on the leader)."""
        self.store = store
        self.driver = driver
        self.sessions = sessions
        self.tick_ms = tick_ms or int(os.environ.get("GAMUT_TOURNAMENT_TICK_MS", "1000"))
        """How often the director looks at the tournaments."""
        self.grace_ms = grace_ms or int(os.environ.get("GAMUT_TOURNAMENT_GRACE_MS", "60000"))
        """How long a paired player may be absent from its game before losing it."""
        self._wall = wall or (lambda: datetime.now(UTC))
        self.leading: Callable[[], bool] = lambda: True
        """Whether this server directs the tournaments (in a cluster: leads the lobby)."""
        self.refilled: Callable[[], Awaitable[bool]] = _always
        """Whether every node has signed its connections in again here (in a cluster,
        after this node took the lead)."""
        self.alone = True
        """Whether this server alone writes tournaments: else (in a cluster) other nodes
        create and start them, and tell the director so by :attr:`tell_director`, which
        at worst (a message lost, a node of the release before) looks every
        :data:`CLUSTER_LOOK_S` anyway."""
        self.tell_director: Callable[[], None] = lambda: None
        """Wakes the director where it runs, if elsewhere (on the lobby's leader)."""
        self._wake = asyncio.Event()
        self._in_play = True
        """Whether a tournament had started and not finished at the last look (until
        the first, as if one had)."""
        self._ticker: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()
        """Held while the director works."""
        self.director = Director(store, driver, sessions, lambda: self.wall(), self.grace_ms)
        """Moves the tournaments on."""

    @property
    def wall(self) -> Callable[[], datetime]:
        """The time now."""
        return self._wall

    @wall.setter
    def wall(self, wall: Callable[[], datetime]) -> None:
        """Move the clock (a test does), and look again by it."""
        self._wall = wall
        self._wake.set()

    # --- life cycle ------------------------------------------------------------------

    async def start(self) -> None:
        """Start directing."""
        self._ticker = asyncio.create_task(self._tick_forever(), name="tournaments")

    async def close(self) -> None:
        """Stop directing."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker

    def game_over(self, room_id: str) -> None:
        """The driver's hook: a game ended, so look at the tournaments now, if one was
        being played at the last look (else it was no tournament's game: on a busy server
        most games end with no tournament to move on)."""
        if self._in_play:
            self._wake.set()

    def look(self) -> None:
        """Look at the tournaments now, wherever they are directed (one was created,
        entered or started early)."""
        self._wake.set()
        self.tell_director()

    def wake(self) -> None:
        """Look at the tournaments now, if directed here (another node says to)."""
        self._wake.set()

    async def _tick_forever(self) -> None:
        """Look at the tournaments when told to, or when :meth:`tick` said to look next."""
        led = self.leading()
        wait: float | None = self.tick_ms / 1000
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
            self._wake.clear()
            leading = self.leading()
            if leading and not led:
                await self._until_refilled()
            led = leading
            wait = self.tick_ms / 1000  # a follower looks whether it leads now
            if not leading:
                continue
            try:
                wait = await self.tick()
            except Exception:
                log.exception("directing the tournaments failed")

    async def _until_refilled(self) -> None:
        """Wait, after taking the lead, until every node has signed its connections in
        again here: pairing before they have would seat their players as absent."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LEAD_SETTLE_MAX_S
        while not await self.refilled():
            if loop.time() > deadline:
                log.warning("directing the tournaments before every node signed in again")
                return
            await asyncio.sleep(LEAD_SETTLE_POLL_S)

    async def tick(self) -> float | None:
        """Move every tournament not finished on: start, settle, pair, finish; the
        seconds until the next look is due unless something happens first (``None``:
        nothing is due)."""
        async with self.lock:
            unfinished = await self.store.tournament_list(unfinished=True)
            for record in unfinished:
                await self.director.advance(record)
        return self._next_look(unfinished)

    def _next_look(self, unfinished: list[TournamentRecord]) -> float | None:
        """When to look next: every tick while a tournament runs (its players come and
        go); at the next start while some are upcoming; never, while none is, until woken
        (a tournament created, entered or started, a game's end); in a cluster, at least
        every :data:`CLUSTER_LOOK_S`."""
        now = self.wall()
        self._in_play = any(
            record.status != "upcoming" or record.starts_at <= now for record in unfinished
        )
        tick = self.tick_ms / 1000
        if self._in_play:
            return tick
        starts = [(record.starts_at - now).total_seconds() for record in unfinished]
        if starts:
            starts.append(max(tick, CLUSTER_LOOK_S if not self.alone else ALONE_LOOK_S))
        elif not self.alone:
            starts.append(max(tick, CLUSTER_LOOK_S))
        return min(starts, default=None)

    # --- entering and withdrawing ----------------------------------------------------

    async def enter(self, tournament_id: str, who: Who, kind: str) -> TournamentStatus:
        """Enter ``who`` (an account of ``kind``) in the tournament; :class:`EntryRefusedError`.
        An entrant still in it (a bot reconnecting) is told so, whatever the stage."""
        record = await self._known(tournament_id)
        entrants = await self.store.tournament_entrants(record.id)
        if record.status != "finished" and any(
            e.name == who.name and not e.withdrawn for e in entrants
        ):
            return tournament_status(record, True, f"{who.name} is entered in {record.name}")
        record = await self._open_to(tournament_id, who, kind)
        entrant = Entrant(who.name, kind, who.account, False, self.wall())
        await self.store.enter_tournament(record.id, entrant)
        self.look()
        return tournament_status(record, True, f"{who.name} entered {record.name}")

    async def withdraw(self, tournament_id: str, who: Who) -> TournamentStatus:
        """Withdraw ``who``; a game being played goes on. :class:`EntryRefusedError`."""
        record = await self._known(tournament_id)
        if who.account is None:
            raise EntryRefusedError(NOT_AUTHENTICATED, "guests do not enter tournaments")
        await self.store.withdraw_from_tournament(record.id, who.name)
        self.look()
        return tournament_status(record, False, f"{who.name} withdrew from {record.name}")

    async def _known(self, tournament_id: str) -> TournamentRecord:
        record = await self.store.tournament(tournament_id)
        if record is None:
            raise EntryRefusedError(
                UNKNOWN_TOURNAMENT, f"no tournament has the id {tournament_id!r}"
            )
        return record

    async def _open_to(self, tournament_id: str, who: Who, kind: str) -> TournamentRecord:
        """The tournament, if ``who`` may enter it now."""
        record = await self._known(tournament_id)
        if who.account is None:
            raise EntryRefusedError(
                NOT_AUTHENTICATED, "only accounts enter tournaments: sign in first"
            )
        if record.entry == "people" and kind != "human":
            raise EntryRefusedError(UNAVAILABLE, f"{record.name} is for people, not bots")
        if record.entry == "bots" and kind != "bot":
            raise EntryRefusedError(UNAVAILABLE, f"{record.name} is for bots, not people")
        end = ends_at(record)
        if record.status == "finished" or (end is not None and self.wall() >= end):
            raise EntryRefusedError(UNAVAILABLE, f"{record.name} has finished")
        if record.status == "running" and record.kind == "round_robin":
            raise EntryRefusedError(
                UNAVAILABLE, f"{record.name} has started: a round robin's schedule is fixed"
            )
        return record


async def _always() -> bool:
    """Every node has signed in (a server alone)."""
    return True
