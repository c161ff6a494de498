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

from collections.abc import Callable
from typing import Final

from gamut_protocol import Join, Resume
from gamut_server.cluster.bus import Bus
from gamut_server.cluster.directory import Directory
from gamut_server.cluster.held import HeldOps
from gamut_server.cluster.wire import ToRoom
from gamut_server.core.ops import Handle, RoomOp
from gamut_server.edge.connection import Connection
from gamut_server.rooms import ConnectionId

MAX_IN_FLIGHT: Final = 16
"""Most unanswered requests remembered per connection and room."""

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
        tracked = self._note_in_flight(room_id, op)
        if alive:
            self._bus.send(owner, ToRoom(room_id=room_id, op=op))
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
        if len(self._owners) >= MAX_OWNERS_KEPT:
            del self._owners[next(iter(self._owners))]
        self._owners[room_id] = owner

    def _note_in_flight(self, room_id: str, op: RoomOp) -> bool:
        """Remember a request sent to a room on another node until it is answered (if that
        node dies first, the request is sent again to the room's new node); whether it
        is remembered. A ``join`` or ``resume`` is answered by anything from the room;
        another request by what carries its ``id`` (one without an ``id`` expects no
        answer and is not remembered)."""
        if not isinstance(op, Handle):
            return False
        if op.message.id is None and not isinstance(op.message, Join | Resume):
            return False
        conn = self._connection(op.who.conn)
        if conn is None:
            return False
        waiting = conn.in_flight.setdefault(room_id, [])
        waiting.append(op.message)
        del waiting[:-MAX_IN_FLIGHT]
        return True

    def room_moved(self, room_id: str, node: int) -> None:
        """Room ``room_id`` lives on ``node`` now: send it what waited for it."""
        self._owners.pop(room_id, None)
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
