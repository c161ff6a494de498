"""The ladder's queues: pools pairing continuously, rated games, and who is signed in.

One lock guards the queues: sign-ins, departures, joins, leaves, the pairing tick and
the end of each ladder game happen one at a time. Pairing runs every
``LadderSettings.tick_ms`` while anyone waits, and not at all while nobody does (the
service waits for :attr:`LadderQueues.queued` instead); each pairing opens a rated room
with the pool's clocks and a short grace period for a dropped player
(``LadderSettings.grace_ms``); two accounts of which one blocked the other are never
paired (their blocks are read from the store at
each tick where two accounts wait). When a game
ends, it is rated, both players are told their new ratings (``ladder_result``), and
they go back in the queue, except a player who is gone (it returns when it says
``hello`` again) or who lost on time (it returns when it joins again or reconnects).

The queues know connections only as :class:`~gamut_server.ladder_live.ops.Session`
values and send through the driver, so in a cluster the node leading the lobby runs
them for the connections of every node.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from gamut_protocol import ErrorMessage, JoinLadder, LadderStatus, LeaveLadder, ServerMessage
from gamut_protocol.errors import NOT_AUTHENTICATED, UNKNOWN_POOL, ErrorCode
from gamut_server.core.driver import Driver
from gamut_server.ladder.pairing import Pairing, PairingRules
from gamut_server.ladder.pools import LadderSettings
from gamut_server.ladder.ratings import RatingModel
from gamut_server.ladder_live.ops import (
    GameEnded,
    LadderOp,
    LadderRequest,
    Refilled,
    Session,
    SignedIn,
)
from gamut_server.ladder_live.rating import rate_game
from gamut_server.ladder_live.state import Member, PoolState
from gamut_server.rooms import RoomConfig, RoomSpec, SeatSpec, Send, Who, ai_seat
from gamut_server.rooms.blocks import BlockBook
from gamut_server.storage import QueueEvent, QueueRecord, Store, new_game_id, queue_record

log = logging.getLogger(__name__)


class LadderQueues:
    """The pools' queues of a running server (of the lobby's node, in a cluster)."""

    def __init__(
        self,
        settings: LadderSettings,
        store: Store,
        driver: Driver,
        model: RatingModel,
        *,
        ai_available: bool = True,
        rules: PairingRules | None = None,
        wall_ms: Callable[[], int] | None = None,
    ) -> None:
        """Queues over ``settings.pools``; :meth:`load` reads them from the store."""
        self.settings = settings
        self.store = store
        self.refilled: set[int] = set()
        """The nodes of a cluster that have signed their connections in again here since
        these queues were made (when this node took the lead)."""
        self.driver = driver
        self.model = model
        self._wall_ms = wall_ms or (lambda: int(time.time() * 1000))
        rng = random.Random(settings.seed)
        self.pools = {
            spec.pool_id: PoolState.new(
                spec, rng, anchors=ai_available, rules=rules or PairingRules()
            )
            for spec in settings.pools
        }
        """Each pool's live state, by id."""
        self.sessions: dict[int, Session] = {}
        """Every signed-in connection, by id."""
        self.room_config = RoomConfig(grace_ms=settings.grace_ms)
        """The settings of every ladder room."""
        self.lock = asyncio.Lock()
        """Held while the queues change."""
        self.queued = asyncio.Event()
        """Set when a player enters a queue: pairing, idle while nobody waits, starts again."""

    async def load(self) -> None:
        """Load ratings, memberships, recent games and the unfinished ladder games."""
        async with self.lock:
            await self._load()

    async def _load(self) -> None:
        """:meth:`load`, under the lock."""
        since = datetime.now(UTC) - timedelta(days=1)
        for pool_id, state in self.pools.items():
            state.load_ratings(await self.store.ratings(pool_id))
            recent = await self.store.rating_history(pool_id, since=since)
            state.load_recent(recent, self._wall_ms())
            for membership in await self.store.memberships(pool=pool_id):
                if membership.member:
                    state.members[membership.name] = Member(membership.name)
        await self._catch_up()
        await self._mark_unfinished_games()

    async def apply(self, op: LadderOp) -> None:
        """Take in one operation."""
        if isinstance(op, SignedIn):
            await self.signed_in(op.session)
        elif isinstance(op, LadderRequest):
            await self.request(op.who, op.message)
        elif isinstance(op, GameEnded):
            await self.game_ended(op)
        elif isinstance(op, Refilled):
            self.refilled.add(op.node)
        else:
            self.signed_out(op.conn)

    async def _catch_up(self) -> None:
        """Rate the pool games that ended while the ladder could not rate them."""
        for info in await self.store.unrated_games():
            state = self.pools.get(info.pool or "")
            first, second = info.players
            if state is None or first is None or second is None or info.result is None:
                continue
            seats = ((first.name, first.kind), (second.name, second.kind))
            await self._rate(state, info.id, seats, info.result.winner)

    async def _mark_unfinished_games(self) -> None:
        """Players of the unfinished pool games are playing."""
        for record in await self.store.unfinished_games():
            state = self.pools.get(record.info.pool or "")
            if state is None:
                continue
            for player in record.info.players:
                if player is None:
                    continue
                state.playing[player.name] = record.info.id
                if player.kind == "ai":
                    state.pairer.playing(player.name)

    # --- coming and going ------------------------------------------------------------

    async def signed_in(self, session: Session) -> None:
        """A signed-in connection was welcomed: its pools take it back in the queue."""
        name = session.who.name
        self.sessions[session.who.conn] = session
        await self.store.mark_seen(name)
        async with self.lock:
            events = []
            for state in self.pools.values():
                member = state.members.get(name)
                if member is None:
                    continue
                member.kind, member.suspended = session.who.kind, False
                events += self._requeue(state, name, "back")
        await self.store.record_queue_events(events)

    def signed_out(self, conn: int) -> None:
        """A connection closed; a player with none left leaves every queue until it returns.

        Not a coroutine: a closing handler may be cancelled at any await, so the queues
        change at once and the records are written in the background.
        """
        session = self.sessions.pop(conn, None)
        if session is None or self._online(session.who.name):
            return
        name = session.who.name
        events = [
            self._event(state, name, "away")
            for state in self.pools.values()
            if name in state.members and state.pairer.withdraw(name)
        ]
        self.driver.spawn(self._note_away(name, events), name=f"away-{name}")

    async def _note_away(self, name: str, events: list[QueueRecord]) -> None:
        """Write that ``name`` left: when it was last seen, and its queue events."""
        await self.store.mark_seen(name)
        await self.store.record_queue_events(events)

    # --- join and leave --------------------------------------------------------------

    async def request(self, who: Who, message: JoinLadder | LeaveLadder) -> None:
        """Answer ``join_ladder`` or ``leave_ladder`` with a ``ladder_status``."""
        state = self.pools.get(message.pool)
        if state is None:
            known = ", ".join(sorted(self.pools))
            text = f"no ladder pool {message.pool!r}; pools: {known}"
            self._refuse(who, UNKNOWN_POOL, text, message)
            return
        session = self.sessions.get(who.conn)
        if session is None:
            text = "only accounts are rated: register a name and say hello with its token"
            self._refuse(who, NOT_AUTHENTICATED, text, message)
            return
        name = session.who.name
        async with self.lock:
            if isinstance(message, JoinLadder):
                await self._join(state, session)
            else:
                await self._leave(state, name)
            member = name in state.pairer.waiting or name in state.playing
        answer = LadderStatus(
            reply_to=message.id,
            pool=message.pool,
            member=member and name in state.members,
            waiting=state.waiting_count(),
        )
        self.driver.deliver(Send((who.conn,), answer))

    def _refuse(
        self, who: Who, code: ErrorCode, sentence: str, message: JoinLadder | LeaveLadder
    ) -> None:
        """Answer ``message`` with an error."""
        self.driver.deliver(Send((who.conn,), ErrorMessage.answering(message, code, sentence)))

    async def _join(self, state: PoolState, session: Session) -> None:
        """Make the session's account a member of the pool and put it in the queue."""
        name = session.who.name
        events = []
        if name not in state.members:
            await self.store.set_membership(
                state.spec.pool_id, name, member=True, account_id=session.account_id
            )
            events.append(self._event(state, name, "join"))
        member = state.members.setdefault(name, Member(name))
        member.kind, member.suspended = session.who.kind, False
        events += self._requeue(state, name, "queued", tell=False)
        await self.store.record_queue_events(events)

    async def _leave(self, state: PoolState, name: str) -> None:
        """Take ``name`` out of the pool (a game it plays goes on)."""
        if state.members.pop(name, None) is None:
            return
        state.pairer.withdraw(name)
        await self.store.set_membership(state.spec.pool_id, name, member=False)
        await self.store.record_queue_events([self._event(state, name, "leave")])

    def _requeue(
        self, state: PoolState, name: str, event: QueueEvent, *, tell: bool = True
    ) -> list[QueueRecord]:
        """Put a member back in the queue if it is here, willing and free (``tell``: say so
        with a ``ladder_status``)."""
        member = state.members.get(name)
        if member is None or member.suspended or not self._online(name):
            return []
        if name in state.playing:
            state.pairer.present.add(name)
            return []
        if not state.pairer.enqueue(name, self._wall_ms()):
            return []
        self.queued.set()
        if tell:
            status = LadderStatus(
                pool=state.spec.pool_id, member=True, waiting=state.waiting_count()
            )
            self._tell(name, status)
        return [self._event(state, name, event)]

    # --- pairing ---------------------------------------------------------------------

    def anyone_waiting(self) -> bool:
        """Whether any pool has a player waiting (else a tick has nobody to pair)."""
        return any(state.pairer.waiting for state in self.pools.values())

    async def tick(self) -> None:
        """Pair whom each pool can pair now, and start their games."""
        async with self.lock:
            for state in self.pools.values():
                apart = await self._apart(state)
                for pairing in state.pairer.pair(state.ordinals(), self._wall_ms(), apart):
                    await self._start_game(state, pairing)

    async def _apart(self, state: PoolState) -> Callable[[str, str], bool] | None:
        """Who may not be paired in ``state``'s queue: the blocks of the accounts waiting,
        read from the store (wherever in a cluster they were made), when two wait."""
        accounts = {
            session.who.name: session.account_id
            for session in self.sessions.values()
            if session.who.name in state.pairer.waiting
        }
        if len(accounts) < 2:
            return None
        return BlockBook.of(await self.store.blocks_among(accounts)).apart

    async def _start_game(self, state: PoolState, pairing: Pairing) -> None:
        """Open the rated room of one pairing."""
        spec = state.spec
        seats = tuple(self._seat(state, name) for name in pairing.sides)
        members = tuple(who for name in pairing.sides for who in self._whos(name))
        room_id = new_game_id()
        room_spec = RoomSpec(
            game=spec.game,
            options=spec.options,
            seats=(seats[0], seats[1]),
            time_control=spec.time_control,
            rated=True,
            pool=spec.pool_id,
            opening=state.opening_for(*pairing.sides),
        )
        for name in pairing.sides:
            state.playing[name] = room_id
        state.games_started += 1
        events = []
        for name, waited in zip(pairing.sides, pairing.waited_ms, strict=True):
            if name not in state.pairer.anchors:
                state.waits_ms.append(waited)
                events.append(self._event(state, name, "paired", game_id=room_id, wait_ms=waited))
        await self.store.record_queue_events(events)
        await self.driver.open_room(room_id, room_spec, members, config=self.room_config)

    def _seat(self, state: PoolState, name: str) -> SeatSpec:
        """The seat of a paired player or anchor."""
        rating = state.skill(name, self.model).rating
        if name in state.pairer.anchors:
            return replace(ai_seat(int(name.removeprefix("ai-"))), rating=rating)
        return SeatSpec(name=name, kind=state.members[name].kind, rating=rating)

    # --- the end of a game -----------------------------------------------------------

    async def game_ended(self, ended: GameEnded) -> None:
        """Rate a finished ladder game, tell the players, and queue them again."""
        state = self.pools.get(ended.pool)
        if state is None:
            return
        async with self.lock:
            seats = tuple((seat.name, seat.kind) for seat in ended.seats)
            if ended.finished:
                await self._rate(state, ended.room_id, (seats[0], seats[1]), ended.winner)
            events = []
            for side, seat in enumerate(ended.seats):
                if state.playing.get(seat.name) == ended.room_id:
                    del state.playing[seat.name]
                if seat.kind == "ai":
                    state.pairer.release_anchor(seat.name)
                elif ended.timeout and ended.winner != side:
                    events += self._suspend(state, seat.name)
                else:
                    events += self._requeue(state, seat.name, "queued")
            await self.store.record_queue_events(events)

    def _suspend(self, state: PoolState, name: str) -> list[QueueRecord]:
        """Keep a player who lost on time out of the queue until it joins again."""
        member = state.members.get(name)
        if member is None:
            return []
        member.suspended = True
        state.pairer.withdraw(name)
        self._tell(
            name, LadderStatus(pool=state.spec.pool_id, member=False, waiting=state.waiting_count())
        )
        return [self._event(state, name, "timeout")]

    async def _rate(
        self,
        state: PoolState,
        game_id: str,
        seats: tuple[tuple[str, str], tuple[str, str]],
        winner: int | None,
    ) -> None:
        """Rate one game, store it and tell both players their new ratings."""
        message = await rate_game(self.model, self.store, state, game_id, seats, winner)
        if message is not None:
            for name, _ in seats:
                self._tell(name, message)

    # --- helpers ---------------------------------------------------------------------

    def _whos(self, name: str) -> list[Who]:
        """The signed-in connections of ``name``."""
        return [session.who for session in self.sessions.values() if session.who.name == name]

    def _online(self, name: str) -> bool:
        """Whether ``name`` has a signed-in connection."""
        return any(session.who.name == name for session in self.sessions.values())

    def _tell(self, name: str, message: ServerMessage) -> None:
        """Send ``message`` to every signed-in connection of ``name``."""
        conns = tuple(who.conn for who in self._whos(name))
        if conns:
            self.driver.deliver(Send(conns, message))

    def _event(
        self,
        state: PoolState,
        name: str,
        event: QueueEvent,
        *,
        game_id: str | None = None,
        wait_ms: int | None = None,
    ) -> QueueRecord:
        """A queue event of ``state``'s pool, now."""
        return queue_record(state.spec.pool_id, name, event, game_id=game_id, wait_ms=wait_ms)
