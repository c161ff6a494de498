"""The ladder service: pools pairing continuously, rated games, and who is signed in.

One lock guards the ladder's state: joins, leaves, comings and goings, the pairing tick
and the end of each ladder game happen one at a time. Pairing runs every
``LadderSettings.tick_ms``; each pairing opens a rated room with the pool's clocks and
a short grace period for a dropped player (``LadderSettings.grace_ms``). When a game
ends, it is rated, both players are told their new ratings (``ladder_result``), and
they go back in the queue, except a player who is gone (it returns when it says
``hello`` again) or who lost on time (it returns when it joins again or reconnects).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from gamut_protocol import (
    ClientKind,
    ErrorMessage,
    Hello,
    JoinLadder,
    LadderStatus,
    LeaveLadder,
    ServerMessage,
)
from gamut_protocol.errors import BAD_TOKEN, NOT_AUTHENTICATED, UNKNOWN_POOL, ErrorCode
from gamut_server.connection import Connection
from gamut_server.driver import Driver
from gamut_server.identity import Names
from gamut_server.ladder.accounts import SignInError, TokenHasher, check_sign_in
from gamut_server.ladder.pairing import Pairing, PairingRules
from gamut_server.ladder.pools import LadderSettings
from gamut_server.ladder.ratings import RatingModel
from gamut_server.ladder_live.rating import rate_game
from gamut_server.ladder_live.registry import AccountRegistry
from gamut_server.ladder_live.settings import settings_from_env
from gamut_server.ladder_live.state import Member, PoolState
from gamut_server.rooms import Room, RoomConfig, RoomSpec, SeatSpec, Who, ai_seat
from gamut_server.storage import (
    Account,
    GameInfo,
    QueueEvent,
    QueueRecord,
    Store,
    new_game_id,
    queue_record,
)

log = logging.getLogger(__name__)

Refuse = Callable[[Connection, ErrorCode, str, JoinLadder | LeaveLadder], None]
"""How the hub answers a ladder message with an error: connection, code, sentence, request."""


class LadderService:
    """The ladder of a running server."""

    def __init__(
        self,
        settings: LadderSettings,
        store: Store,
        driver: Driver,
        names: Names,
        connections: Mapping[int, Connection],
        *,
        ai_available: bool = True,
        hasher: TokenHasher | None = None,
        model: RatingModel | None = None,
        rules: PairingRules | None = None,
        wall_ms: Callable[[], int] | None = None,
    ) -> None:
        """A ladder over ``settings.pools``; :meth:`start` loads it and starts pairing."""
        self.settings = settings
        self.store = store
        self.driver = driver
        self.names = names
        self.connections = connections
        self.hasher = hasher or TokenHasher()
        """Hashes and verifies account tokens."""
        self.model = model or RatingModel()
        """Rates the games."""
        self._wall_ms = wall_ms or (lambda: int(time.time() * 1000))
        rng = random.Random(settings.seed)
        self.pools = {
            spec.pool_id: PoolState.new(
                spec, rng, anchors=ai_available, rules=rules or PairingRules()
            )
            for spec in settings.pools
        }
        """Each pool's live state, by id."""
        self.registry = AccountRegistry(store, self.hasher, names)
        """Registers accounts and reissues or revokes their tokens."""
        self.accounts: dict[int, Account] = {}
        """The account each signed-in connection proved."""
        self.room_config = RoomConfig(grace_ms=settings.grace_ms)
        """The settings of every ladder room."""
        self._lock = asyncio.Lock()
        self._ticker: asyncio.Task[None] | None = None

    # --- life cycle ------------------------------------------------------------------

    async def start(self) -> None:
        """Load ratings, memberships and recent games; rate games left unrated; start pairing."""
        since = datetime.now(UTC) - timedelta(days=1)
        for pool_id, state in self.pools.items():
            state.load_ratings(await self.store.ratings(pool_id))
            recent = await self.store.rating_history(pool_id, since=since)
            state.load_recent(recent, self._wall_ms())
            for membership in await self.store.memberships(pool=pool_id):
                if membership.member:
                    state.members[membership.name] = Member(membership.name)
        await self._catch_up()
        self._mark_restored_games()
        self._ticker = asyncio.create_task(self._tick_forever(), name="ladder-pairing")

    async def close(self) -> None:
        """Stop pairing."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker

    async def _catch_up(self) -> None:
        """Rate the pool games that ended while the ladder could not rate them."""
        for info in await self.store.unrated_games():
            state = self.pools.get(info.pool or "")
            if state is None or None in info.players or info.result is None:
                continue
            await self._rate(state, info.id, _seats(info), info.result.winner)

    def _mark_restored_games(self) -> None:
        """Players of the unfinished pool games brought back from storage are playing."""
        for handle in self.driver.rooms.values():
            room = handle.room
            state = self.pools.get(room.spec.pool or "")
            if state is None or room.over:
                continue
            for seat in room.spec.seats:
                state.playing[seat.name] = room.room_id
                if seat.is_ai:
                    state.pairer.playing(seat.name)

    # --- signing in, coming and going ------------------------------------------------

    async def sign_in(self, conn: Connection, hello: Hello) -> bool:
        """Check a ``hello`` against the account of its name; ``True`` if it signed in.

        ``False`` when the name has no account (a guest); raises :class:`SignInError` for
        a missing, wrong or revoked token.
        """
        account = await self.store.account(hello.name)
        if account is None:
            return False
        await asyncio.to_thread(check_sign_in, account, hello.token, self.hasher)
        self.names.claim_account(hello.name, conn.id)
        self.accounts[conn.id] = account
        return True

    def end_sessions(self, name: str, why: str) -> None:
        """Close every connection signed in as ``name`` (its token stopped working), each
        told why with a fatal ``bad_token`` error."""
        sentence = f"{why}: this session is closed; sign in with a valid token"
        for conn in list(self.connections.values()):
            account = self.accounts.get(conn.id)
            if account is not None and account.name == name:
                conn.send(ErrorMessage(code=BAD_TOKEN, message=sentence, fatal=True))
                conn.close_after_sent(sentence)

    async def connected(self, conn: Connection) -> None:
        """A signed-in connection was welcomed: its pools take it back in the queue."""
        account = self.accounts.get(conn.id)
        if account is None:
            return
        await self.store.mark_seen(account.name)
        async with self._lock:
            events = []
            for state in self.pools.values():
                member = state.members.get(account.name)
                if member is None:
                    continue
                member.kind, member.suspended = conn.kind, False
                events += self._requeue(state, account.name, "back")
        await self.store.record_queue_events(events)

    def disconnected(self, conn: Connection) -> None:
        """A connection closed; a player with none left leaves every queue until it returns.

        Not a coroutine: a closing handler may be cancelled at any await, so the queues
        change at once and the records are written in the background.
        """
        account = self.accounts.pop(conn.id, None)
        if account is None or self._online(account.name):
            return
        events = [
            self._event(state, account.name, "away")
            for state in self.pools.values()
            if account.name in state.members and state.pairer.withdraw(account.name)
        ]
        self.driver.spawn(self._note_away(account.name, events), name=f"away-{account.name}")

    async def _note_away(self, name: str, events: list[QueueRecord]) -> None:
        """Write that ``name`` left: when it was last seen, and its queue events."""
        await self.store.mark_seen(name)
        await self.store.record_queue_events(events)

    # --- join and leave --------------------------------------------------------------

    async def handle(
        self, conn: Connection, message: JoinLadder | LeaveLadder, refuse: Refuse
    ) -> None:
        """Answer ``join_ladder`` or ``leave_ladder`` with a ``ladder_status``."""
        state = self.pools.get(message.pool)
        if state is None:
            known = ", ".join(sorted(self.pools))
            refuse(conn, UNKNOWN_POOL, f"no ladder pool {message.pool!r}; pools: {known}", message)
            return
        account = self.accounts.get(conn.id)
        if account is None:
            sentence = "only accounts are rated: register a name and say hello with its token"
            refuse(conn, NOT_AUTHENTICATED, sentence, message)
            return
        async with self._lock:
            if isinstance(message, JoinLadder):
                await self._join(state, account, conn.kind)
            else:
                await self._leave(state, account)
            member = account.name in state.pairer.waiting or account.name in state.playing
        answer = LadderStatus(
            reply_to=message.id,
            pool=message.pool,
            member=member and account.name in state.members,
            waiting=state.waiting_count(),
        )
        conn.send(answer)

    async def _join(self, state: PoolState, account: Account, kind: ClientKind) -> None:
        """Make ``account`` a member of the pool and put it in the queue."""
        name = account.name
        events = []
        if name not in state.members:
            await self.store.set_membership(
                state.spec.pool_id, name, member=True, account_id=account.id
            )
            events.append(self._event(state, name, "join"))
        member = state.members.setdefault(name, Member(name))
        member.kind, member.suspended = kind, False
        events += self._requeue(state, name, "queued", tell=False)
        await self.store.record_queue_events(events)

    async def _leave(self, state: PoolState, account: Account) -> None:
        """Take ``account`` out of the pool (a game it plays goes on, unrated it is not)."""
        name = account.name
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
        if tell:
            status = LadderStatus(
                pool=state.spec.pool_id, member=True, waiting=state.waiting_count()
            )
            self._tell(name, status)
        return [self._event(state, name, event)]

    # --- pairing ---------------------------------------------------------------------

    async def _tick_forever(self) -> None:
        """Pair every tick until cancelled."""
        while True:
            await asyncio.sleep(self.settings.tick_ms / 1000)
            try:
                await self.tick()
            except Exception:
                log.exception("ladder pairing failed")

    async def tick(self) -> None:
        """Pair whom each pool can pair now, and start their games."""
        async with self._lock:
            for state in self.pools.values():
                for pairing in state.pairer.pair(state.ordinals(), self._wall_ms()):
                    await self._start_game(state, pairing)

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

    def game_over(self, room: Room) -> None:
        """The driver's hook: a room's game ended; rate it if it is a ladder game."""
        if room.spec.pool in self.pools:
            self.driver.spawn(self._game_over(room), name=f"ladder-{room.room_id}")

    async def _game_over(self, room: Room) -> None:
        """Rate a finished ladder game, tell the players, and queue them again."""
        state = self.pools[room.spec.pool or ""]
        result = room.match.result
        async with self._lock:
            if room.match.status == "finished" and result is not None:
                seats = tuple((seat.name, seat.kind) for seat in room.spec.seats)
                await self._rate(state, room.room_id, (seats[0], seats[1]), result.winner)
            events = []
            for side, seat in enumerate(room.spec.seats):
                if state.playing.get(seat.name) == room.room_id:
                    del state.playing[seat.name]
                if seat.is_ai:
                    state.pairer.release_anchor(seat.name)
                elif result is not None and result.reason == "timeout" and result.winner != side:
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
        return [
            Who(conn=conn.id, name=name, kind=conn.kind)
            for conn in self.connections.values()
            if conn.name == name and conn.id in self.accounts
        ]

    def _online(self, name: str) -> bool:
        """Whether ``name`` has a signed-in connection."""
        return bool(self._whos(name))

    def _tell(self, name: str, message: ServerMessage) -> None:
        """Send ``message`` to every connection of ``name``."""
        for who in self._whos(name):
            self.connections[who.conn].send(message)

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


def _seats(info: GameInfo) -> tuple[tuple[str, str], tuple[str, str]]:
    """The names and kinds of a stored game's players."""
    first, second = info.players
    assert first is not None
    assert second is not None
    return (first.name, first.kind), (second.name, second.kind)


__all__ = ["LadderService", "SignInError", "settings_from_env"]
