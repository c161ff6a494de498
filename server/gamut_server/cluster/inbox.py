"""What a node does with each envelope the other nodes send it.

Envelopes are taken in the order they arrive. Whatever must wait (a room's lock, a
storage write) runs in a task started at once, in that order: a room's lock and the
lobby's state machine see the operations in the order they were sent. The inbox
reaches this node's server only through its :class:`~gamut_server.cluster.port.ServerPort`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Final

from gamut_protocol import (
    ErrorMessage,
    Join,
    Resume,
    parse_server_message,
)
from gamut_protocol.errors import UNAVAILABLE, UNKNOWN_ROOM
from gamut_server.cluster.bus import Bus
from gamut_server.cluster.ids import node_of
from gamut_server.cluster.lobby_side import LobbySide
from gamut_server.cluster.membership import Membership
from gamut_server.cluster.port import ServerPort
from gamut_server.cluster.routes import RoomRoutes
from gamut_server.cluster.wire import (
    BlocksChanged,
    Deliver,
    Done,
    EndSessions,
    Envelope,
    Leader,
    ListPoolsRequest,
    ListRoomsRequest,
    LobbyChatRequest,
    LookAtTournaments,
    NodeDown,
    NotHere,
    OpenRoomRequest,
    Reply,
    Request,
    RoomMovedTo,
    SeekNoted,
    ToLadder,
    ToLobby,
    ToRoom,
)
from gamut_server.core.ops import (
    Gone,
    Handle,
    Leave,
    RemoveLine,
    RoomOp,
    Stop,
)
from gamut_server.ladder_live.ops import LadderOp, Refilled, SignedIn
from gamut_server.ladder_live.service import LadderService
from gamut_server.rooms import RoomMessage, Send, Who

log = logging.getLogger(__name__)

LOST: Final = (
    "the server holding this game stopped before it answered, and the game did not come "
    "back on another server (it may have ended there): look at the game, and send this "
    "again if it still applies"
)
"""What a request is answered when its room's node died and the room came back nowhere."""


class Inbox:
    """Handles the envelopes of one node."""

    def __init__(
        self,
        server: ServerPort,
        membership: Membership,
        bus: Bus,
        routes: RoomRoutes,
        lobby: LobbySide,
    ) -> None:
        """The inbox of the node of ``membership``, serving ``server``; ``lobby`` keeps
        what the next leader of the lobby gets from this node."""
        self.server = server
        self.membership = membership
        self.bus = bus
        self.routes = routes
        self.lobby = lobby
        self.look_at_tournaments: Callable[[], None] = lambda: None
        """Wakes this node's tournament director (told by another node)."""

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
                self.server.spawn(self._answer(envelope), name=f"request-{envelope.request_id}")
            case Leader():
                self._new_leader(envelope.node)
            case NodeDown():
                self._node_down(envelope.node)
            case RoomMovedTo():
                self.room_moved(envelope.room_id, envelope.node)
            case Done():
                self.routes.done(envelope.ticket)
            case NotHere():
                self.routes.not_there(envelope.room_id, envelope.node)
            case SeekNoted():
                self.lobby.noted(envelope)
            case EndSessions():
                if self.server.ladder is not None:
                    self.server.ladder.end_sessions(envelope.name, envelope.why)
            case BlocksChanged():
                if envelope.node != self.membership.number:
                    self.server.adopt_blocking(envelope.blocking)
            case LookAtTournaments():
                self.look_at_tournaments()
            case Reply():
                pass

    def _deliver(self, envelope: Deliver) -> None:
        """Queue a message on this node's connections."""
        message = parse_server_message(envelope.text)
        lean = None if envelope.lean is None else parse_server_message(envelope.lean)
        texts = {False: envelope.text}
        if envelope.lean is not None:
            texts[True] = envelope.lean
        self.server.deliver(Send(envelope.to, message, lean), texts)

    def _lobby(self, envelope: ToLobby) -> None:
        """Apply a lobby operation if this node leads the lobby, else pass it on."""
        if not self._leading():
            self.server.spawn(self.server.lobby_op(envelope.op), name="lobby-forward")
            return
        self.lobby.entered(envelope.op)
        self.server.lobby_here(envelope.op)

    def _ladder(self, envelope: ToLadder) -> None:
        """Apply a ladder operation if this node runs the queues, else pass it on."""
        ladder = self.server.ladder
        if ladder is None:
            return
        if not self._leading():
            self.server.spawn(ladder.tell(envelope.op), name="ladder-forward")
            return
        self.server.spawn(ladder.apply(envelope.op), name=f"ladder-{envelope.op.op}")

    def _room(self, envelope: ToRoom) -> None:
        """Apply a room operation to a room of this node, or say it is not here; a
        request sent with a ticket is acknowledged once performed (or held here for a
        room coming back, or answered that it is not here)."""
        room_id, op, ticket = envelope.room_id, envelope.op, envelope.ticket
        done = None if ticket is None else self._acknowledge(op, ticket)
        if self.routes.held_for_takeover(room_id, op):
            if done is not None:
                done()
            return
        if self.server.room_here(room_id, op, done) or isinstance(op, Stop | RemoveLine):
            return
        sender = node_of(op.who.conn)
        if sender != self.membership.number:
            self.bus.send(sender, NotHere(room_id=room_id, node=self.membership.number))
        if isinstance(op, Handle):
            text = f"no room {room_id!r} is being played here"
            answer = ErrorMessage.answering(op.message, UNKNOWN_ROOM, text)
            self.server.deliver(Send((op.who.conn,), answer))
        if done is not None:
            done()

    def _acknowledge(self, op: RoomOp, ticket: int) -> Callable[[], None]:
        """What tells the sender of ``op`` that its request ``ticket`` was performed."""
        sender = node_of(op.who.conn) if isinstance(op, Handle | Gone) else None
        if sender is None:
            return lambda: None
        if sender == self.membership.number:
            return lambda: self.routes.done(ticket)
        return lambda: self.bus.send(sender, Done(ticket=ticket))

    async def _answer(self, request: Request) -> None:
        """Answer another node's request."""
        body = request.body
        if isinstance(body, ListRoomsRequest):
            rooms = tuple(self.server.listed(body.game))
            self.bus.answer(request, Reply(request_id=0, rooms=rooms))
            return
        if isinstance(body, ListPoolsRequest):
            ladder = self.server.ladder
            pools = () if ladder is None else await ladder.pool_listing()
            self.bus.answer(request, Reply(request_id=0, pools=tuple(pools)))
            return
        if isinstance(body, LobbyChatRequest):
            chat = tuple(self.server.lobby_chat(body.count))
            self.bus.answer(request, Reply(request_id=0, chat=chat))
            return
        assert isinstance(body, OpenRoomRequest)
        try:
            await self.server.open_room(body.room_id, body.spec, body.members, body.reply_to)
        except Exception as error:
            log.exception("opening room %s for another node failed", body.room_id)
            self.bus.answer(request, Reply(request_id=0, ok=False, error=str(error)))
            return
        self.bus.answer(request, Reply(request_id=0))

    def _new_leader(self, leader: int) -> None:
        """Another node (or this one) leads the lobby now: fill it with this node's rooms,
        its players' blocks and its connections (each following the lobby gets a fresh
        lobby snapshot, already without the seeks and lines of those its player blocked)."""
        self.membership.leader = leader
        self.lobby.refill()
        ladder = self.server.ladder
        if ladder is not None:
            refill: list[LadderOp] = [SignedIn(session) for session in ladder.signed_in.values()]
            refill.append(Refilled(self.membership.number))
            self.server.spawn(_tell_all(ladder, refill), name="ladder-refill")

    def _leading(self) -> bool:
        """Whether this node leads the lobby (as last seen)."""
        return self.membership.leader == self.membership.number

    def _node_down(self, dead: int) -> None:
        """A node died: its connections leave this node's rooms, and the lobby if it leads.

        This node itself, counted dead while it was paused or cut off, is not: it comes
        back at its next heartbeat (see :meth:`come_back`)."""
        if dead == self.membership.number:
            self.come_back()
            return
        self.routes.node_dead(dead)
        self._lost_with(dead)
        for room_id, room in self.server.rooms():
            for who in room.members.whos():
                if node_of(who.conn) == dead:
                    self.server.spawn(
                        self.server.room_op(room_id, Gone(who)), name=f"gone-{who.conn}"
                    )
        if not self._leading():
            return
        for who in self.server.lobby_connected():
            if node_of(who.conn) == dead:
                self.server.spawn(self.server.lobby_op(Leave(who)), name=f"left-{who.conn}")
        if self.server.ladder is not None:
            self.server.ladder.signed_out_where(lambda conn: node_of(conn) == dead)

    def _lost_with(self, dead: int) -> None:
        """Node ``dead`` was taken over: what this node's connections sent to its rooms
        that came back nowhere (their games were over) and was never answered is
        answered now, with the reason."""
        rooms = self.routes.lost_with(dead)
        for conn in self.server.connections():
            for room_id in rooms & conn.in_flight.keys():
                for request in conn.in_flight.pop(room_id):
                    answer = ErrorMessage.answering(request, UNAVAILABLE, LOST)
                    self.server.deliver(Send((conn.id,), answer))

    def room_moved(self, room_id: str, node: int) -> None:
        """A room came back on ``node``: what waited for it goes there, and this node's
        connections following it resume there (each gets a fresh snapshot) and send
        again what the room's old node never answered."""
        self.routes.room_moved(room_id, node)
        if node != self.membership.number and self.server.forget_room(room_id):
            log.warning("room %s was taken over by node %d: it leaves this node", room_id, node)
        for conn in self.server.connections():
            waiting = conn.in_flight.pop(room_id, [])
            if conn.name is None or not (waiting or room_id in conn.rooms):
                continue
            if not any(isinstance(request, Join | Resume) for request in waiting):
                # from the start: the room answers with a whole snapshot
                waiting.insert(0, Resume(room_id=room_id, after_seq=0))
            who = Who(conn=conn.id, name=conn.name, kind=conn.kind)
            self.server.spawn(self._send_again(room_id, who, waiting), name=f"again-{conn.id}")

    def come_back(self) -> None:
        """This node was counted dead (paused, or cut off from Redis) and holds its lease
        again: its connections enter the lobby again, and each room elsewhere that one of
        them follows takes it back (a fresh snapshot), as the other nodes let them go."""
        leader = self.membership.leader
        if leader is not None:
            self._new_leader(leader)
        here = {room_id for room_id, _ in self.server.rooms()}
        for conn in self.server.connections():
            if conn.name is None:
                continue
            who = Who(conn=conn.id, name=conn.name, kind=conn.kind)
            for room_id in conn.rooms - here:
                again: list[RoomMessage] = [Resume(room_id=room_id, after_seq=0)]
                self.server.spawn(self._send_again(room_id, who, again), name=f"back-{conn.id}")

    async def _send_again(self, room_id: str, who: Who, requests: list[RoomMessage]) -> None:
        """Send ``requests`` of ``who`` to ``room_id`` again, in order."""
        for request in requests:
            await self.server.room_op(room_id, Handle(who, request))


async def _tell_all(ladder: LadderService, operations: list[LadderOp]) -> None:
    """Hand each operation to the ladder's queues, in order."""
    for op in operations:
        await ladder.tell(op)
