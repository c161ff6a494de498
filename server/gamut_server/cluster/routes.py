"""Which node to send a room's operations to, as this node knows it.

A room's owner is read from the directory in Redis (a script that also says whether
the owner's lease is live) the first time this node forwards something to the room,
then kept: a room changes node only when its node dies and another takes it over, and
it leaves its node's memory only once its game is over. So the kept owner is forgotten
when a heartbeat finds its node dead, when a room is announced on another node
(:class:`~gamut_server.cluster.wire.RoomMovedTo`), and when the owner answers that the
room is no longer there (:class:`~gamut_server.cluster.wire.NotHere`); the next
operation reads the directory again.

Requests sent to a room elsewhere are remembered on their connection until they are
answered: if the room's node dies first, they are sent again to its new node.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Final, TypeVar

from gamut_protocol import Chat, Join, Resume
from gamut_server.cluster.bus import Bus
from gamut_server.cluster.directory import Directory
from gamut_server.cluster.held import HeldOps
from gamut_server.cluster.wire import ToRoom
from gamut_server.core.ops import Handle, RoomOp
from gamut_server.edge.connection import Connection
from gamut_server.rooms import ConnectionId, RoomMessage

MAX_IN_FLIGHT: Final = 16
"""Most unanswered requests remembered per connection and room."""

K = TypeVar("K")
V = TypeVar("V")

MAX_OWNERS_KEPT: Final = 10_000
"""Most room owners kept; the oldest is forgotten first (and read again if needed)."""


class RoomRoutes:
    """The owners of rooms on other nodes, and the operations sent or held for them."""

    def __init__(
        self,
        number: int,
        directory: Directory,
        bus: Bus,
        held: HeldOps,
        restoring: set[str],
        connection: Callable[[ConnectionId], Connection | None],
    ) -> None:
        """Routes of node ``number``, with its ``directory`` and ``bus``; ``restoring`` is
        the set of rooms its takeover is still bringing back, ``connection`` finds a
        connection whose socket is on this node."""
        self._number = number
        self._connection = connection
        self._directory = directory
        self._bus = bus
        self._held = held
        self._restoring = restoring
        self._owners: dict[str, int] = {}
        self._sent_to: dict[str, int] = {}
        self._tickets = itertools.count(1)
        self._ticketed: dict[int, tuple[ConnectionId, str, RoomMessage]] = {}

    async def room_elsewhere(self, room_id: str, op: RoomOp) -> bool:
        """Send ``op`` to the node owning ``room_id``; ``False`` if none (else) does.

        If that node is dead, ``op`` waits until another node has taken the room over.
        """
        if self.held_for_takeover(room_id, op):
            return True
        found = await self._owner_and_lease(room_id)
        if found is None:
            return False
        owner, alive = found
        _keep_bounded(self._sent_to, room_id, owner)
        tracked, ticket = self._note_in_flight(room_id, op)
        if alive:
            self._bus.send(owner, ToRoom(room_id=room_id, op=op, ticket=ticket))
        elif not tracked:
            self._held.hold(room_id, op)
        return True

    def held_for_takeover(self, room_id: str, op: RoomOp) -> bool:
        """Hold ``op`` if this node is still bringing ``room_id`` back; whether it is."""
        if room_id not in self._restoring:
            return False
        self._held.hold(room_id, op)
        return True

    async def _owner_and_lease(self, room_id: str) -> tuple[int, bool] | None:
        """The node owning ``room_id`` (another than this one) and whether it is alive:
        kept from an earlier answer, else read from the directory (and kept if alive)."""
        owner = self._owners.get(room_id)
        if owner is not None:
            return owner, True
        found = await self._directory.owner_and_lease(room_id)
        if found is None or found[0] == self._number:
            return None
        if found[1]:
            self._keep(room_id, found[0])
        return found

    def _keep(self, room_id: str, owner: int) -> None:
        """Keep ``owner`` as the node of ``room_id``, forgetting the oldest beyond
        :data:`MAX_OWNERS_KEPT`."""
        _keep_bounded(self._owners, room_id, owner)

    def _note_in_flight(self, room_id: str, op: RoomOp) -> tuple[bool, int | None]:
        """Remember a request sent to a room on another node until it is answered (if that
        node dies first, the request is sent again to the room's new node): whether it
        is remembered, and the ticket the room's node sends back once it has performed
        a request without an ``id``. A ``join`` or ``resume`` is answered by anything
        from the room; another request with an ``id`` by what carries its ``id``; one
        without, by its ticket. A chat line without an ``id`` is not remembered (sent
        again, it could be said twice); every other request is refused by the room if
        it was already performed (a move answers a ply, a resignation a running game)."""
        if not isinstance(op, Handle):
            return False, None
        message = op.message
        conn = self._connection(op.who.conn)
        if conn is None or (message.id is None and isinstance(message, Chat)):
            return False, None
        ticket = None
        if message.id is None and not isinstance(message, Join | Resume):
            ticket = next(self._tickets)
            _keep_bounded(self._ticketed, ticket, (conn.id, room_id, message))
        waiting = conn.in_flight.setdefault(room_id, [])
        waiting.append(message)
        del waiting[:-MAX_IN_FLIGHT]
        return True, ticket

    def done(self, ticket: int) -> None:
        """The room's node performed the request it was sent with ``ticket``."""
        found = self._ticketed.pop(ticket, None)
        if found is None:
            return
        conn_id, room_id, message = found
        conn = self._connection(conn_id)
        waiting = None if conn is None else conn.in_flight.get(room_id)
        if conn is None or waiting is None:
            return
        left = [request for request in waiting if request is not message]
        if left:
            conn.in_flight[room_id] = left
        else:
            del conn.in_flight[room_id]

    def lost_with(self, node: int) -> set[str]:
        """The rooms whose requests were last sent to ``node``, which died and was taken
        over without them (their games were over), no longer kept."""
        rooms = {room_id for room_id, sent in self._sent_to.items() if sent == node}
        for room_id in rooms:
            del self._sent_to[room_id]
        return rooms

    def room_moved(self, room_id: str, node: int) -> None:
        """Room ``room_id`` lives on ``node`` now: send it what waited for it."""
        self._owners.pop(room_id, None)
        _keep_bounded(self._sent_to, room_id, node)
        for op in self._held.release(room_id):
            self._bus.send(node, ToRoom(room_id=room_id, op=op))

    def not_there(self, room_id: str, node: int) -> None:
        """Node ``node`` does not hold ``room_id`` (any longer): stop sending it there."""
        if self._owners.get(room_id) == node:
            del self._owners[room_id]

    def node_dead(self, node: int) -> None:
        """Node ``node`` died: forget every room kept as its."""
        for room_id in [room for room, owner in self._owners.items() if owner == node]:
            del self._owners[room_id]


def _keep_bounded(kept: dict[K, V], key: K, value: V) -> None:
    """Keep ``value`` under ``key``, forgetting the oldest beyond :data:`MAX_OWNERS_KEPT`."""
    if key not in kept and len(kept) >= MAX_OWNERS_KEPT:
        del kept[next(iter(kept))]
    kept[key] = value
