"""The lobby as one node of a cluster sees it: the way to its leader, and what this node
gives a new leader.

One node at a time leads the lobby; every other node sends it each lobby operation.
This node remembers, for its own connections, what a new leader needs when the old one
dies: their open seeks (kept as the leader tells them, :mod:`~gamut_server.cluster.
kept_seeks`), the lobby requests with an ``id`` the leader has not answered yet, and the
requests made while no node led at all. The leader gives a player entering the lobby
from any node the blocks it holds for their name. When a node takes the lead, this node enters
its rooms and connections there again, each connection with its seeks, then sends the
requests still unanswered.
"""

from __future__ import annotations

from typing import Final

from gamut_protocol import PRESENCE_VERSION, Seek, SeekCreated
from gamut_server.cluster.bus import Bus
from gamut_server.cluster.ids import node_of
from gamut_server.cluster.kept_seeks import KeptSeeks
from gamut_server.cluster.membership import Membership
from gamut_server.cluster.port import ServerPort
from gamut_server.cluster.wire import BlocksChanged, SeekNoted, ToLobby
from gamut_server.core.ops import Ask, Enter, Leave, Listed, LobbyOp
from gamut_server.edge.connection import Connection
from gamut_server.rooms import SeekKept, Send, Who

MAX_LOBBY_WAITING: Final = 1_000
"""Most lobby requests kept while no node leads the lobby."""

MAX_LOBBY_IN_FLIGHT: Final = 16
"""Most unanswered lobby requests remembered per connection."""


class LobbySide:
    """This node's way to the lobby's leader, and what it keeps for the next one."""

    def __init__(self, server: ServerPort, membership: Membership, bus: Bus) -> None:
        """The lobby side of the node of ``membership``, serving ``server``."""
        self.server = server
        self.membership = membership
        self.bus = bus
        self.kept = KeptSeeks()
        """The open seeks of this node's connections."""
        self.waiting: list[Ask] = []
        """Lobby requests made while no node led the lobby."""

    def elsewhere(self, op: LobbyOp) -> bool:
        """Send ``op`` to the lobby's leader, unless this node leads (``False``)."""
        if isinstance(op, Leave):
            self.kept.forget(op.who.conn)
        leader = self.membership.leader
        if leader == self.membership.number:
            self.entered(op)
            return False
        if leader is not None:
            self._note_in_flight(op)
            self.bus.send(leader, ToLobby(op=op))
        elif isinstance(op, Ask) and len(self.waiting) < MAX_LOBBY_WAITING:
            self.waiting.append(op)
        return True

    def entered(self, op: LobbyOp) -> None:
        """On the leader, a lobby operation about to be applied: a player entering from a
        node gets there the blocks the lobby holds for their name (made on another node,
        where a guest's are kept only while it is connected), before it blocks anyone
        there and tells the lobby its blocks as that node knows them."""
        if not isinstance(op, Enter):
            return
        blocking = self.server.lobby_blocking(op.who.name)
        if blocking is None:
            return
        node = node_of(op.who.conn)
        if node == self.membership.number:
            self.server.adopt_blocking(blocking)
        else:
            self.bus.send(node, BlocksChanged(node=self.membership.number, blocking=blocking))

    def _note_in_flight(self, op: LobbyOp) -> None:
        """Remember a lobby request with an ``id`` sent to the leader until it is answered
        (if the leader dies first, it is sent to the next one)."""
        if not isinstance(op, Ask) or op.message.id is None:
            return
        conn = self.server.connection(op.who.conn)
        if conn is not None:
            conn.lobby_in_flight.append(op)
            del conn.lobby_in_flight[:-MAX_LOBBY_IN_FLIGHT]

    def seek_kept(self, effect: SeekKept) -> None:
        """A seek opened or closed in the lobby this node leads: keep (or drop) its copy
        here if its author is connected here, else on its author's node."""
        node = node_of(effect.author.conn)
        if node == self.membership.number:
            self.kept.note(effect)
            return
        noted = SeekNoted(
            author=effect.author, seek_id=effect.seek_id, info=effect.info, request=effect.request
        )
        self.bus.send(node, noted)

    def noted(self, envelope: SeekNoted) -> None:
        """The leader opened or closed a seek of a connection of this node."""
        self.kept.note(SeekKept(envelope.author, envelope.seek_id, envelope.info, envelope.request))

    def refill(self) -> None:
        """A node has just taken the lead: enter this node's rooms, its players' blocks and
        its connections there (each following the lobby gets a fresh lobby snapshot,
        without what its player blocked, and its seeks back), then
        send what waited for a leader and what the last one never answered."""
        operations: list[LobbyOp] = [
            Listed(room.summary()) for _, room in self.server.rooms() if not room.over
        ]
        operations += self.server.blocking()
        for conn in self.server.connections():
            if conn.name is not None:
                who = Who(conn=conn.id, name=conn.name, kind=conn.kind)
                presence = conn.protocol >= PRESENCE_VERSION
                operations.append(Enter(who, conn.lobby, presence, seeks=self.kept.of(conn.id)))
        operations += self.waiting
        self.waiting.clear()
        for conn in self.server.connections():
            operations += self._unanswered(conn)
        self.server.spawn(self._perform_all(operations), name="lobby-refill")

    def _unanswered(self, conn: Connection) -> list[Ask]:
        """The lobby requests of ``conn`` the last leader never answered, to send to the
        next one; a seek the last leader opened (its copy kept here) is answered here."""
        waiting: list[Ask] = conn.lobby_in_flight
        conn.lobby_in_flight = []
        again = []
        for ask in waiting:
            message = ask.message
            opened = self.kept.opened_by(conn.id, message.id)
            if isinstance(message, Seek) and opened is not None:
                answer = SeekCreated(seek=opened.info, reply_to=message.id)
                self.server.deliver(Send((conn.id,), answer))
            else:
                again.append(ask)
        return again

    async def _perform_all(self, operations: list[LobbyOp]) -> None:
        """Hand each operation to the lobby, in order."""
        for op in operations:
            await self.server.lobby_op(op)
