"""The hub: every connection, the lobby and the rooms, and the routing of client messages.

Greeting a connection (its ``hello``, the names it binds) is the hub's part
:class:`~gamut_server.core.greeting.Greeting`; errors answering a request are made by
:mod:`gamut_server.core.replies`.

A parsed client message arrives from a connection's handler task; the hub checks that
the connection has said ``hello`` (``ping`` and ``hello`` excepted), then hands the
message to the lobby or to the room it names, through the :class:`Driver`, which
performs the effects each returns.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final, TypeGuard

from aiohttp import web

from gamut_protocol import (
    AcceptChallenges,
    AcceptSeek,
    AiOpponent,
    Block,
    Chat,
    ClientMessage,
    Hello,
    Join,
    JoinLadder,
    JoinTournament,
    LeaveLadder,
    LeaveTournament,
    Move,
    Ping,
    Pong,
    Report,
    RoomRequest,
    RoomSummary,
    Seek,
    Unblock,
)
from gamut_protocol.errors import (
    MUTED,
    NOT_AUTHENTICATED,
    UNAVAILABLE,
    UNKNOWN_ROOM,
)
from gamut_server.ai.pool import AIPool
from gamut_server.cluster.names import SharedNames
from gamut_server.config import ServerConfig
from gamut_server.core.driver import Driver
from gamut_server.core.gauges import HubGauges
from gamut_server.core.greeting import Greeting
from gamut_server.core.identity import Names
from gamut_server.core.ops import Ask, Blocking, Gone, Handle, Leave
from gamut_server.core.replies import error, who_of
from gamut_server.core.safety import Safety, SafetyMessage
from gamut_server.edge.addresses import AddressLimits
from gamut_server.edge.connection import Connection, going_away
from gamut_server.ladder_live.ops import LadderRequest
from gamut_server.metrics import ServerMetrics
from gamut_server.people.accounts import AccountBook
from gamut_server.people.hashing import HashingPool
from gamut_server.people.throttle import PasswordFailures
from gamut_server.rooms import Lobby, LobbyConfig, LobbyMessage, Room, RoomConfig, RoomMessage, Who
from gamut_server.storage import Store
from gamut_server.tournaments.settings import EntryRefusedError

if TYPE_CHECKING:
    from gamut_server.ladder_live.service import LadderService
    from gamut_server.tournaments_live.service import TournamentService

log = logging.getLogger(__name__)


class Hub(Greeting):
    """Owns the connections, the names in use, the lobby and the live rooms."""

    def __init__(self, config: ServerConfig, store: Store, pool: AIPool) -> None:
        """A hub with nobody connected and no room."""
        self.config = config
        self.store = store
        self.pool = pool
        self.connections: dict[int, Connection] = {}
        """Every open connection, by id."""
        self.silent: set[web.WebSocketResponse] = set()
        """Open WebSockets whose client has sent nothing yet (no connection made)."""
        self.welcomed = 0
        """How many open connections have said ``hello`` (kept, not counted per request)."""
        self.names = Names()
        self.addresses = AddressLimits(config.addresses)
        """What each client address has open and may still do."""
        self.accounts = AccountBook(
            store,
            self.names,
            self.addresses,
            HashingPool(config.hash_workers, config.hash_waiting),
            PasswordFailures(config.password_failures),
        )
        """Every account, signing in, and passwords."""
        lobby = Lobby(
            LobbyConfig(max_rooms=config.max_rooms_per_connection, challenges=config.challenges)
        )
        room_config = RoomConfig(
            grace_ms=config.grace_ms,
            untimed_grace_ms=config.untimed_grace_ms,
            untimed_ai_grace_ms=config.untimed_ai_grace_ms,
        )
        self.driver = Driver(config, store, pool, lobby, self.connections, room_config)
        self.driver.on_room_removed = self._room_removed
        self.safety = Safety(store, lobby, self.connections, self.addresses, self._blocking_changed)
        """Blocks, reports, and the bans and mutes in force."""
        self.metrics = ServerMetrics()
        """What ``/metrics`` tells the operator's monitoring."""
        self.metrics.read_from(HubGauges(self))
        self.driver.on_move_stored = self.metrics.moves.inc
        store.on_commit = self.metrics.store_commit.observe
        pool.on_answer = self.metrics.ai_search.observe
        self.open_reports = 0
        """Reports waiting for a moderator, as of the last scrape."""
        self.ladder: LadderService | None = None
        """The ladder, once the application has started it (accounts and rated pools)."""
        self.tournaments: TournamentService | None = None
        """The tournaments, once the application has started them."""
        self.shared_names: SharedNames | None = None
        """The cluster's name bindings, when this server is one node of several."""
        self.cluster_stats: Callable[[], dict[str, Any]] | None = None
        """This node's place in its cluster, for ``/health``, if it is in one."""
        self.list_rooms: Callable[[str | None], Awaitable[list[RoomSummary]]] | None = None
        """The cluster's live rooms, if this server is one node of several."""

    async def _blocking_changed(self, blocking: Blocking) -> None:
        """Hand a player's blocks to the lobby and, in a cluster, to the other nodes."""
        await self.driver.lobby_op(blocking)
        if self.driver.cluster is not None:
            self.driver.cluster.share_blocking(blocking)

    def attach(self, conn: Connection) -> None:
        """A new connection opened; it must say ``hello`` next."""
        self.connections[conn.id] = conn

    async def detach(self, conn: Connection) -> None:
        """A connection closed: leave its rooms (grace periods start) and the lobby."""
        self.connections.pop(conn.id, None)
        if self.ladder is not None:
            self.ladder.disconnected(conn)
        if conn.name is None and not conn.watcher:
            return
        who = who_of(conn)
        for room_id in sorted(conn.rooms):
            await self.driver.room_op(room_id, Gone(who))
        if conn.name is None:
            return
        self.welcomed -= 1
        self.safety.closed(conn)
        await self.driver.lobby_op(Leave(who))
        # In a cluster the binding in Redis keeps a seated guest's name (see cluster.names).
        keep = self.shared_names is None and bool(self.lobby.rooms_of(conn.name))
        self.names.release(conn.name, conn.id, keep=keep)

    async def receive(self, conn: Connection, message: ClientMessage) -> None:
        """Route one parsed client message."""
        if type(message) is Move and conn.welcomed:  # most messages: straight to the room
            await self._room(conn, message)
        elif isinstance(message, Ping):
            conn.send(Pong(reply_to=message.id))
        elif isinstance(message, Hello):
            await self._hello(conn, message)
        elif not conn.welcomed and conn.watcher and _watches(message):
            await self._room(conn, message)
        elif not conn.welcomed:
            error(conn, NOT_AUTHENTICATED, _NAME_FIRST[conn.watcher], message)
        elif isinstance(message, Block | Unblock | AcceptChallenges | Report):
            await self._safety(conn, message)
        elif isinstance(message, Chat) and (muted := self.safety.muted_refusal(conn)):
            self.metrics.refused("muted")
            error(conn, MUTED, muted, message)
        elif isinstance(message, JoinLadder | LeaveLadder):
            if self.ladder is None:
                error(conn, UNAVAILABLE, "the ladder is not open on this server", message)
            else:
                await self.ladder.tell(LadderRequest(who_of(conn), message))
        elif isinstance(message, JoinTournament | LeaveTournament):
            await self._tournament(conn, message)
        elif isinstance(message, Chat) and message.room_id is None:
            await self._lobby(conn, message)
        elif isinstance(message, RoomRequest | Chat):
            await self._room(conn, message)
        else:
            await self._lobby(conn, message)

    async def _tournament(
        self, conn: Connection, message: JoinTournament | LeaveTournament
    ) -> None:
        """Enter or withdraw the connection's account, answering with ``tournament_status``."""
        if self.tournaments is None:
            error(conn, UNAVAILABLE, "tournaments are not open on this server", message)
            return
        try:
            if isinstance(message, JoinTournament):
                status = await self.tournaments.enter(message.tournament, who_of(conn), conn.kind)
            else:
                status = await self.tournaments.withdraw(message.tournament, who_of(conn))
        except EntryRefusedError as refusal:
            error(conn, refusal.code, refusal.message, message)
            return
        conn.send(status.model_copy(update={"reply_to": message.id}))

    def stats(self) -> dict[str, Any]:
        """Counts for ``/health`` (and this node's place in its cluster, if any)."""
        counts: dict[str, Any] = {
            "connections": len(self.connections),
            "players": self.welcomed,
            "rooms": len(self.driver.rooms),
            "ai_thinking": self.pool.thinking,
        }
        if self.cluster_stats is not None:
            counts["cluster"] = self.cluster_stats()
        return counts

    async def is_online(self, name: str) -> bool:
        """Whether ``name`` has a connection now (in a cluster: uses or seats it on any
        node, as of the last minute)."""
        if self.shared_names is not None:
            return await self.shared_names.bound(name)
        return self.names.online(name)

    def room_summaries(self, game: str | None = None) -> list[RoomSummary]:
        """The rooms in memory as the lobby lists them, optionally of one game."""
        summaries = (handle.room.summary() for handle in self.driver.rooms.values())
        return [summary for summary in summaries if game is None or summary.game == game]

    async def live_rooms(self, game: str | None = None) -> list[RoomSummary]:
        """The live rooms of the service (of every node of a cluster), of ``game`` if given."""
        if self.list_rooms is not None:
            return await self.list_rooms(game)
        return self.room_summaries(game)

    async def shutdown(self) -> None:
        """Close every connection (code 1001, going away), waiting for the handshakes."""
        conns = list(self.connections.values())
        reason = "the server is shutting down"
        await asyncio.gather(
            *(conn.go_away(reason) for conn in conns),
            *(going_away(ws, reason) for ws in list(self.silent)),
        )

    async def close(self) -> None:
        """Stop the rooms' timers and background tasks, and the hashing threads."""
        await self.driver.close()
        self.accounts.pool.close()

    async def _lobby(self, conn: Connection, message: LobbyMessage) -> None:
        """Hand a message to the lobby (refusing AI seeks when the AI is off)."""
        wants_ai = isinstance(message, Seek) and isinstance(message.opponent, AiOpponent)
        if wants_ai and not self.pool.available:
            error(conn, UNAVAILABLE, "the AI is not available on this server", message)
            return
        await self.driver.lobby_op(Ask(await self._rated_who(conn, message), message))

    async def _rated_who(self, conn: Connection, message: LobbyMessage) -> Who:
        """The lobby's view of ``conn``, with its account's ratings when ``message`` is a
        rated seek or an acceptance (which may be of a rated seek)."""
        who = who_of(conn)
        rated = isinstance(message, AcceptSeek) or (isinstance(message, Seek) and message.rated)
        if conn.account_id is None or not rated:
            return who
        ratings = await self.store.player_ratings(conn.account_id)
        skills = tuple((rating.category, rating.mu, rating.sigma) for rating in ratings)
        return replace(who, ratings=skills)

    async def _room(self, conn: Connection, message: RoomMessage) -> None:
        """Hand a message to the room it names."""
        room_id = message.room_id
        assert room_id is not None
        found = await self.driver.room_op(room_id, Handle(who_of(conn), message))
        if not found:
            text = f"no room {room_id!r} is being played here"
            error(conn, UNKNOWN_ROOM, text, message, room_id=room_id)

    async def _safety(self, conn: Connection, message: SafetyMessage) -> None:
        """Hand a block, an unblock, a challenge setting or a report to the safety part
        (a report with the room it names, if that room is here)."""
        room_id = getattr(message, "room_id", None)
        handle = None if room_id is None else self.driver.rooms.get(room_id)
        await self.safety.handle(conn, message, None if handle is None else handle.room)

    def _room_removed(self, room: Room) -> None:
        """A finished room left memory: free the names only it was holding."""
        for seat in room.summary().players:
            if not self.lobby.rooms_of(seat.name):
                self.names.forget_idle(seat.name)


_WATCHING: Final = frozenset({"resume", "leave"})
"""The room messages that only watch, besides ``join`` as a spectator."""

_NAME_FIRST: dict[bool, str] = {
    False: "say hello first",
    True: "this connection only watches: say hello with a name to play or chat",
}
"""Why a message before a named ``hello`` is refused: for a new connection, and for one
that only watches."""


def _watches(message: ClientMessage) -> TypeGuard[RoomMessage]:
    """Whether ``message`` only watches a room: ``join`` as a spectator, ``resume``, ``leave``."""
    if isinstance(message, Join):
        return message.role == "spectator"
    return message.type in _WATCHING
