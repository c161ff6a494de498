"""One node of a cluster: its leases, its bus, and the driver's way to the other nodes.

Several Gamut processes share one database and one Redis. Each room lives on one node
(the node of the player who accepted the seek, or of the player who asked for the AI),
and the AI thinks for it there, once. Connections are numbered per node (the node's
number times 2**32, plus a count), so a connection id says which node holds the socket:
a message for a connection elsewhere goes to that node's inbox. One node at a time
leads the lobby (and so the seeks, challenges and presence): every lobby operation goes
to it, and when it dies the next leader starts an empty lobby that every node fills
again with its connections (and their open seeks) and rooms
(:mod:`~gamut_server.cluster.lobby_side`). See docs/deploy.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Any, Final

import redis.asyncio as aioredis

from gamut_protocol import ChatEntry, ErrorMessage, RoomSummary, dump
from gamut_protocol.errors import UNAVAILABLE
from gamut_server.cluster.bus import CLOSE_TIMEOUT_S, Bus, NoAnswerError
from gamut_server.cluster.directory import Directory
from gamut_server.cluster.held import HeldOps
from gamut_server.cluster.ids import first_connection_id, node_of
from gamut_server.cluster.inbox import Inbox
from gamut_server.cluster.keys import Keys
from gamut_server.cluster.lobby_side import LobbySide
from gamut_server.cluster.membership import Membership
from gamut_server.cluster.names import NAME_TTL_S, SharedNames
from gamut_server.cluster.port import ServerPort
from gamut_server.cluster.routes import RoomRoutes
from gamut_server.cluster.takeover import Takeover
from gamut_server.cluster.wire import (
    BlocksChanged,
    Deliver,
    EndSessions,
    Leader,
    ListPoolsRequest,
    ListRoomsRequest,
    LobbyChatRequest,
    LookAtTournaments,
    NodeDown,
    OpenRoomRequest,
    RoomMovedTo,
    ToLadder,
)
from gamut_server.config import ClusterSettings
from gamut_server.core.cluster_side import ServerSide
from gamut_server.core.hub import Hub
from gamut_server.core.ops import Blocking, Handle, LobbyOp, RoomOp
from gamut_server.edge.connection import number_connections_from
from gamut_server.ladder_live.ops import LadderOp
from gamut_server.ladder_live.service import LadderService
from gamut_server.ladder_live.views import pool_json
from gamut_server.rooms import OpenRoom, SeekKept, Send
from gamut_server.rooms.effects import ConnectionId
from gamut_server.tournaments_live.service import TournamentService

log = logging.getLogger(__name__)

BUS_DOWN: Final = (
    "the servers cannot reach one another for a moment (their message bus is down): "
    "nothing was done, please try again in a few seconds"
)
"""What a request for a room on another node is answered while Redis cannot be reached."""


class ClusterNode:
    """This server as one node of a cluster (the driver's :class:`ClusterPort`)."""

    def __init__(self, settings: ClusterSettings, hub: Hub) -> None:
        """A node of the cluster ``settings`` names, serving ``hub``; :meth:`start` joins."""
        self.settings = settings
        self.hub = hub
        self.server: ServerPort = ServerSide(hub)
        """The server, as the cluster reads it."""
        self.keys = Keys(settings.name)
        self.redis: aioredis.Redis = aioredis.from_url(settings.redis, decode_responses=True)
        self.membership = Membership(self.redis, self.keys, settings)
        self.names = SharedNames(self.redis, self.keys)
        self.number = 0
        self.bus: Bus
        self.directory: Directory
        self.takeover: Takeover
        self.held: HeldOps
        self.routes: RoomRoutes
        self.inbox: Inbox
        self.cut_off_since: float | None = None
        """Since when (``time.monotonic``) Redis has not answered, if it does not."""
        self._unrecorded: set[str] = set()
        self._heart: asyncio.Task[None] | None = None
        self._taking: set[int] = set()
        self._terms = 0
        """How many times this node has taken the lead of the lobby."""
        self.lobby: LobbySide
        self.ladder: LadderService | None = None
        """The ladder, once the application has started it."""

    # --- life cycle ------------------------------------------------------------------

    async def start(self, address: str) -> None:
        """Join the cluster, listen to the other nodes, and take over the rooms nobody holds."""
        self.number = await self.membership.join(address)
        number_connections_from(first_connection_id(self.number))
        self.bus = Bus(self.redis, self.keys, self.number)
        self.directory = Directory(self.redis, self.keys, self.number)
        self.takeover = Takeover(
            self.hub.driver, self.directory, self.hub.names, self.settings.node
        )
        self.held = HeldOps(self.server.deliver)
        self.routes = RoomRoutes(
            self.number,
            self.directory,
            self.bus,
            self.held,
            self.takeover.restoring,
            self.server.connection,
        )
        self.hub.driver.cluster = self
        self.hub.shared_names = self.names
        self.hub.cluster_stats = self.stats
        self.hub.safety.lobby_chat = self.lobby_chat
        self.lobby = LobbySide(self.server, self.membership, self.bus)
        self.inbox = Inbox(self.server, self.membership, self.bus, self.routes, self.lobby)
        await self.bus.start(self.inbox.receive)
        await self._beat()
        await self.takeover.orphans(self._alive)
        self._heart = asyncio.create_task(self._beat_forever(), name="cluster-heartbeat")
        log.info("joined cluster %r as node %d (%s)", self.settings.name, self.number, address)

    async def close(self) -> None:
        """Leave the cluster: stop the heartbeat and the bus, give the leases up (so
        another node takes this node's unfinished rooms over at its next heartbeat)."""
        if self._heart is not None:
            self._heart.cancel()
            await asyncio.wait({self._heart}, timeout=CLOSE_TIMEOUT_S)
        with contextlib.suppress(aioredis.RedisError, TimeoutError):
            async with asyncio.timeout(CLOSE_TIMEOUT_S):
                await self.membership.leave()
        await self.bus.close()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(CLOSE_TIMEOUT_S):
                await self.redis.aclose()

    def serve_ladder(self, ladder: LadderService) -> None:
        """Let the ladder's accounts reach every node: a withdrawn token closes its
        sessions on all of them, and a name being registered is held on all of them."""
        ladder.registry.on_token_withdrawn = lambda name, why: self.bus.broadcast(
            EndSessions(name=name, why=why)
        )
        self.hub.accounts.hold_name = self.names.bind_account
        ladder.forward = self.ladder_elsewhere
        ladder.leading = lambda: self.membership.leader == self.number
        ladder.remote_pools = self._leader_pools
        self.ladder = ladder

    def serve_tournaments(self, service: TournamentService) -> None:
        """Let the tournaments' director, which runs on the lobby's leader, hear of the
        tournaments created, entered and started on every node, and know when this node
        leads."""
        service.refilled = self.refilled
        service.alone = False
        service.tell_director = self._tournaments_changed
        self.inbox.look_at_tournaments = service.wake

    def _tournaments_changed(self) -> None:
        """Wake the director on the lobby's leader, if another node leads."""
        leader = self.membership.leader
        if leader is not None and leader != self.number:
            self.bus.send(leader, LookAtTournaments())

    async def refilled(self) -> bool:
        """Whether every live node has signed its connections in again with this node,
        which leads (so the sessions it pairs are the whole cluster's)."""
        if self.ladder is None:
            return True
        return await self.membership.live_nodes() <= self.ladder.queues.refilled

    async def _leader_pools(self) -> list[dict[str, Any]]:
        """The ladder's pools as the node running the queues lists them."""
        leader = self.membership.leader
        if self.ladder is None:
            return []
        if leader is None or leader == self.number:
            return [pool_json(state) for state in self.ladder.pools.values()]
        reply = await self.bus.request(leader, ListPoolsRequest())
        return list(reply.pools)

    async def lobby_chat(self, count: int) -> Sequence[ChatEntry]:
        """The latest ``count`` chat lines of the lobby, from the node leading it (none if
        it does not answer: a report is kept without them rather than not at all)."""
        leader = self.membership.leader
        if leader is None or leader == self.number:
            return self.server.lobby_chat(count)
        try:
            reply = await self.bus.request(leader, LobbyChatRequest(count=count))
        except NoAnswerError:
            log.warning("the lobby's leader did not send its chat lines for a report")
            return ()
        return reply.chat

    async def ladder_elsewhere(self, op: LadderOp) -> bool:
        """Send ``op`` to the ladder's queues on the lobby's leader, unless this node
        leads (``False``)."""
        leader = self.membership.leader
        if leader == self.number:
            return False
        if leader is None:
            log.warning("no node leads the lobby yet: a ladder %s is dropped", op.op)
        else:
            self.bus.send(leader, ToLadder(op=op))
        return True

    def stats(self) -> dict[str, Any]:
        """This node's place in the cluster, for ``/health``."""
        return {
            "cluster": self.settings.name,
            "node": self.settings.node,
            "node_number": self.number,
            "leader": self.membership.leader,
            "redis": "ok" if self.cut_off_since is None and self.bus.subscribed else "unreachable",
        }

    # --- the driver's port -----------------------------------------------------------

    def deliver_elsewhere(self, send: Send, conns: Sequence[ConnectionId]) -> None:
        """Send ``send``'s message to connections of other nodes, one envelope a node."""
        by_node: dict[int, list[ConnectionId]] = {}
        for conn in conns:
            node = node_of(conn)
            if node != self.number:
                by_node.setdefault(node, []).append(conn)
        if not by_node:
            return
        text = dump(send.message)
        lean = None if send.lean is None else dump(send.lean)
        for node, to in by_node.items():
            self.bus.send(node, Deliver(to=tuple(to), text=text, lean=lean))

    async def lobby_elsewhere(self, op: LobbyOp) -> bool:
        """Send ``op`` to the lobby's leader, unless this node leads (``False``)."""
        return self.lobby.elsewhere(op)

    def seek_kept(self, effect: SeekKept) -> None:
        """A seek opened or closed in the lobby this node leads: its author's node keeps
        (or drops) its copy."""
        self.lobby.seek_kept(effect)

    def share_blocking(self, blocking: Blocking) -> None:
        """Tell every other node of a player's blocks, for their connections there."""
        self.bus.broadcast(BlocksChanged(node=self.number, blocking=blocking))

    async def room_elsewhere(self, room_id: str, op: RoomOp) -> bool:
        """Send ``op`` to the node owning ``room_id``; ``False`` if none (else) does
        (see :class:`~gamut_server.cluster.routes.RoomRoutes`). While Redis cannot be
        reached, a request is refused in a sentence (its sender tries again)."""
        try:
            return await self.routes.room_elsewhere(room_id, op)
        except (aioredis.RedisError, OSError):
            if isinstance(op, Handle):
                answer = ErrorMessage.answering(op.message, UNAVAILABLE, BUS_DOWN)
                self.server.deliver(Send((op.who.conn,), answer))
            return True

    async def open_elsewhere(self, effect: OpenRoom) -> bool:
        """Open the room on the node of the connection it answers (else of its first
        member); ``False`` if that is this node, or that node did not answer."""
        asker = effect.reply_to[0] if effect.reply_to else None
        if asker is None and effect.members:
            asker = effect.members[0].conn
        node = self.number if asker is None else node_of(asker)
        if node == self.number:
            return False
        request = OpenRoomRequest(
            room_id=effect.room_id,
            spec=effect.spec,
            members=effect.members,
            reply_to=effect.reply_to,
        )
        try:
            reply = await self.bus.request(node, request)
        except NoAnswerError:
            log.warning("node %d did not open room %s: it opens here", node, effect.room_id)
            return False
        if not reply.ok:
            raise RuntimeError(f"node {node} could not open room {effect.room_id}: {reply.error}")
        return True

    async def room_opened(self, room_id: str) -> None:
        """Record that this node owns the new room (once Redis answers, if it does not)."""
        try:
            await self.directory.claim(room_id)
        except (aioredis.RedisError, OSError):
            log.warning("room %s opens while Redis cannot be reached: recorded later", room_id)
            self._unrecorded.add(room_id)

    async def _record_rooms(self) -> None:
        """Record the rooms opened while Redis could not be reached."""
        for room_id in sorted(self._unrecorded):
            await self._keep_or_let_go(room_id)
            self._unrecorded.discard(room_id)

    async def _keep_or_let_go(self, room_id: str) -> None:
        """Keep a room of this node's memory as its own in Redis, or let it go if another
        node took it over."""
        if not await self.directory.reclaim(room_id) and self.server.forget_room(room_id):
            log.warning("room %s was taken over by another node: it leaves this one", room_id)

    async def room_closed(self, room_id: str) -> None:
        """Record that the room left this node."""
        await self.directory.release(room_id)

    async def room_lost(self, room_id: str) -> None:
        """Another node holds the room now (this node found out at a write): this node's
        connections following it resume it there."""
        try:
            owner = await self.directory.owner(room_id)
        except (aioredis.RedisError, OSError):
            return  # cut off: the connections resume it once this node is back
        if owner is not None and owner != self.number:
            self.inbox.room_moved(room_id, owner)

    async def list_rooms(self, game: str | None) -> list[RoomSummary]:
        """The live rooms of the whole cluster, as the lobby's leader lists them."""
        leader = self.membership.leader
        if leader is None or leader == self.number:
            return list(self.server.listed(game))
        reply = await self.bus.request(leader, ListRoomsRequest(game=game))
        return list(reply.rooms)

    # --- the heartbeat ---------------------------------------------------------------

    async def _beat_forever(self) -> None:
        """Beat every ``heartbeat_s`` until cancelled; renew the names now and then.

        While Redis cannot be reached the node keeps serving its own rooms and tries
        again at each beat; it never stops for that (see :meth:`_rejoin`)."""
        beats_per_renewal = max(1, int(NAME_TTL_S / 4 / self.settings.heartbeat_s))
        count = 0
        while True:
            await asyncio.sleep(self.settings.heartbeat_s)
            try:
                await self._beat()
                count += 1
                if count % beats_per_renewal == 0:
                    await self.names.renew(self._bindings())
            except (aioredis.RedisError, OSError) as error:
                if self.cut_off_since is None:
                    self.cut_off_since = time.monotonic()
                    log.warning("Redis cannot be reached (%s): this node keeps serving", error)
                continue
            if self.cut_off_since is not None:
                away = time.monotonic() - self.cut_off_since
                log.warning("Redis answers again after %.1f s", away)
                self.cut_off_since = None

    async def _beat(self) -> None:
        """One heartbeat: renew the leases, start leading if nobody does, take over the dead."""
        beat = await self.membership.beat()
        if self.membership.lost:
            await self._rejoin()
            return
        if self._unrecorded:
            await self._record_rooms()
        if beat.became_leader:
            self._terms += 1
            self.server.new_lobby(seek_prefix=f"s{self.number}.{self._terms}.")
            if self.ladder is not None:
                self.ladder.take_lead()
            self.bus.broadcast(Leader(node=self.number))
        for node in beat.dead:
            self.routes.node_dead(node)
            if node not in self._taking:
                self._taking.add(node)
                self.server.spawn(self._take_over(node), name=f"takeover-{node}")

    async def _rejoin(self) -> None:
        """This node's lease lapsed (it was paused, or Redis restarted empty): take it
        again under the same number, keep the rooms still this node's (their keys made
        again if Redis lost them), let go of those another node took over, and take this
        node's connections back into the lobby and the rooms elsewhere."""
        log.warning("this node's lease lapsed: it takes it again and keeps its own rooms")
        await self.membership.rejoin()
        for room_id, _ in self.server.rooms():
            await self._keep_or_let_go(room_id)
        self.inbox.come_back()

    async def _take_over(self, node: int) -> None:
        """Take dead node ``node``'s rooms over and tell everyone."""
        try:
            outcome = await self.takeover.dead_node(node)
            if outcome is None:
                return
            taken, complete = outcome
            if complete:
                await self.membership.forget(node)
            for room_id in taken:
                self.bus.broadcast(RoomMovedTo(room_id=room_id, node=self.number))
                self.takeover.restoring.discard(room_id)
            if complete:
                self.bus.broadcast(NodeDown(node=node, taker=self.number))
        finally:
            self._taking.discard(node)

    async def _alive(self, node: int) -> bool:
        """Whether node ``node``'s lease is live."""
        return bool(await self.redis.exists(self.keys.alive(node)))

    def _bindings(self) -> dict[str, str | None]:
        """The names to renew: those this node's connections use, and the human seats of
        its unfinished rooms."""
        bindings: dict[str, str | None] = dict(self.server.name_bindings())
        for _, room in self.server.rooms():
            if room.over:
                continue
            for seat in room.spec.seats:
                if not seat.is_ai:
                    bindings.setdefault(seat.name, None)
        return bindings
