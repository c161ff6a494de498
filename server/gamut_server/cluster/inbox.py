"""What a node does with each envelope the other nodes send it.

Envelopes are taken in the order they arrive. Whatever must wait (a room's lock, a
storage write) runs in a task started at once, in that order: a room's lock and the
lobby's state machine see the operations in the order they were sent.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from gamut_protocol import PRESENCE_VERSION, ErrorMessage, Join, Resume, parse_server_message
from gamut_protocol.errors import UNKNOWN_ROOM
from gamut_server.cluster.ids import node_of
from gamut_server.cluster.wire import (
    Deliver,
    EndSessions,
    Envelope,
    Leader,
    ListPoolsRequest,
    ListRoomsRequest,
    NodeDown,
    OpenRoomRequest,
    Reply,
    Request,
    RoomMovedTo,
    ToLadder,
    ToLobby,
    ToRoom,
)
from gamut_server.core.ops import (
    Enter,
    Gone,
    Handle,
    Leave,
    Listed,
    LobbyOp,
    lobby_effects,
    room_effects,
)
from gamut_server.ladder_live.ops import SignedIn
from gamut_server.ladder_live.service import LadderService
from gamut_server.rooms import RoomMessage, Send, Who

if TYPE_CHECKING:
    from gamut_server.cluster.node import ClusterNode

log = logging.getLogger(__name__)


class Inbox:
    """Handles the envelopes of one node."""

    def __init__(self, node: ClusterNode) -> None:
        """The inbox of ``node``."""
        self.node = node
        self.hub = node.hub
        self.driver = node.hub.driver

    def receive(self, envelope: Envelope) -> None:
        """Handle one envelope (the bus calls this for each, in order)."""
        match envelope:
            case Deliver():
                self._deliver(envelope)
            case ToLobby():
                self._lobby(envelope)
            case ToRoom():
                self._room(envelope)
            case ToLadder():
                self._ladder(envelope)
            case Request():
                self.driver.spawn(self._answer(envelope), name=f"request-{envelope.request_id}")
            case Leader():
                self._new_leader(envelope.node)
            case NodeDown():
                self._node_down(envelope.node)
            case RoomMovedTo():
                self._room_moved(envelope.room_id, envelope.node)
            case EndSessions():
                if self.hub.ladder is not None:
                    self.hub.ladder.end_sessions(envelope.name, envelope.why)
            case Reply():
                pass

    def _deliver(self, envelope: Deliver) -> None:
        """Queue a message on this node's connections."""
        message = parse_server_message(envelope.text)
        lean = None if envelope.lean is None else parse_server_message(envelope.lean)
        texts = {False: envelope.text}
        if envelope.lean is not None:
            texts[True] = envelope.lean
        self.driver.deliver(Send(envelope.to, message, lean), texts)

    def _lobby(self, envelope: ToLobby) -> None:
        """Apply a lobby operation if this node leads the lobby, else pass it on."""
        if self.node.membership.leader != self.node.number:
            self.driver.spawn(self.driver.lobby_op(envelope.op), name="lobby-forward")
            return
        batch = lobby_effects(self.driver.lobby, envelope.op, self.driver.now_ms())
        self.driver.spawn(self.driver.perform(batch), name="lobby-batch")

    def _ladder(self, envelope: ToLadder) -> None:
        """Apply a ladder operation if this node runs the queues, else pass it on."""
        ladder = self.node.ladder
        if ladder is None:
            return
        if self.node.membership.leader != self.node.number:
            self.driver.spawn(ladder.tell(envelope.op), name="ladder-forward")
            return
        self.driver.spawn(ladder.queues.apply(envelope.op), name=f"ladder-{envelope.op.op}")

    def _room(self, envelope: ToRoom) -> None:
        """Apply a room operation to a room of this node, or say it is not here."""
        room_id, op = envelope.room_id, envelope.op
        if room_id in self.node.takeover.restoring:
            self.node.held.hold(room_id, op)
            return
        if room_id not in self.driver.rooms:
            if isinstance(op, Handle):
                text = f"no room {room_id!r} is being played here"
                answer = ErrorMessage.answering(op.message, UNKNOWN_ROOM, text)
                self.driver.deliver(Send((op.who.conn,), answer))
            return
        now = self.driver.now_ms
        call = self.driver.room_call(room_id, lambda room: room_effects(room, op, now()))
        self.driver.spawn(call, name=f"room-{room_id}")

    async def _answer(self, request: Request) -> None:
        """Answer another node's request."""
        body = request.body
        if isinstance(body, ListRoomsRequest):
            rooms = self.driver.lobby.listed(body.game)
            self.node.bus.answer(request, Reply(request_id=0, rooms=rooms))
            return
        if isinstance(body, ListPoolsRequest):
            pools = () if self.node.ladder is None else await self.node.ladder.pool_listing()
            self.node.bus.answer(request, Reply(request_id=0, pools=tuple(pools)))
            return
        assert isinstance(body, OpenRoomRequest)
        try:
            await self.driver.open_room(body.room_id, body.spec, body.members, body.reply_to)
        except Exception as error:
            log.exception("opening room %s for another node failed", body.room_id)
            self.node.bus.answer(request, Reply(request_id=0, ok=False, error=str(error)))
            return
        self.node.bus.answer(request, Reply(request_id=0))

    def _new_leader(self, leader: int) -> None:
        """Another node (or this one) leads the lobby now: fill it with this node's rooms
        and connections (each following the lobby gets a fresh lobby snapshot)."""
        self.node.membership.leader = leader
        operations: list[LobbyOp] = [
            Listed(handle.room.summary())
            for handle in self.driver.rooms.values()
            if not handle.room.over
        ]
        for conn in self.hub.connections.values():
            if conn.name is not None:
                who = Who(conn=conn.id, name=conn.name, kind=conn.kind)
                presence = conn.protocol >= PRESENCE_VERSION
                operations.append(Enter(who, conn.lobby, presence))
        operations += self.node.lobby_waiting
        self.node.lobby_waiting = []
        self.driver.spawn(self._perform_all(operations), name="lobby-refill")
        ladder = self.node.ladder
        if ladder is not None:
            sessions = [SignedIn(session) for session in ladder.signed_in.values()]
            self.driver.spawn(_tell_all(ladder, sessions), name="ladder-refill")

    async def _perform_all(self, operations: list[LobbyOp]) -> None:
        """Hand each operation to the lobby, in order."""
        for op in operations:
            await self.driver.lobby_op(op)

    def _node_down(self, dead: int) -> None:
        """A node died: its connections leave this node's rooms, and the lobby if it leads."""
        for room_id, handle in list(self.driver.rooms.items()):
            for who in handle.room.members.whos():
                if node_of(who.conn) == dead:
                    self.driver.spawn(
                        self.driver.room_op(room_id, Gone(who)), name=f"gone-{who.conn}"
                    )
        if self.node.membership.leader != self.node.number:
            return
        for who in self.driver.lobby.connected():
            if node_of(who.conn) == dead:
                self.driver.spawn(self.driver.lobby_op(Leave(who)), name=f"left-{who.conn}")
        if self.node.ladder is not None:
            queues = self.node.ladder.queues
            for conn in [conn for conn in queues.sessions if node_of(conn) == dead]:
                queues.signed_out(conn)

    def _room_moved(self, room_id: str, node: int) -> None:
        """A room came back on ``node``: what waited for it goes there, and this node's
        connections following it resume there (each gets a fresh snapshot) and send
        again what the room's old node never answered."""
        self.node.room_moved(room_id, node)
        for conn in self.hub.connections.values():
            waiting = conn.in_flight.pop(room_id, [])
            if conn.name is None or not (waiting or room_id in conn.rooms):
                continue
            if not any(isinstance(request, Join | Resume) for request in waiting):
                # from the start: the room answers with a whole snapshot
                waiting.insert(0, Resume(room_id=room_id, after_seq=0))
            who = Who(conn=conn.id, name=conn.name, kind=conn.kind)
            self.driver.spawn(self._send_again(room_id, who, waiting), name=f"again-{conn.id}")

    async def _send_again(self, room_id: str, who: Who, requests: list[RoomMessage]) -> None:
        """Send ``requests`` of ``who`` to ``room_id`` again, in order."""
        for request in requests:
            await self.driver.room_op(room_id, Handle(who, request))


async def _tell_all(ladder: LadderService, operations: list[SignedIn]) -> None:
    """Hand each operation to the ladder's queues, in order."""
    for op in operations:
        await ladder.tell(op)
