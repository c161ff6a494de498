"""What a node's cluster side asks of the server it belongs to.

The way out is the driver's :class:`~gamut_server.core.cluster_port.ClusterPort`, which
:class:`~gamut_server.cluster.node.ClusterNode` implements; the way in is
:class:`ServerPort`, which :class:`gamut_server.core.cluster_side.ServerSide` implements
over the hub and the driver. Once the node has joined (and hooked itself into the hub
and the driver), its inbox, its room routes and its heartbeat read the server only
through this port, never the hub's or the driver's own fields.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterable, Sequence
from typing import Any, Protocol

from gamut_protocol import ChatEntry, RoomSummary
from gamut_server.core.ops import Blocking, LobbyOp, RoomOp
from gamut_server.edge.connection import Connection
from gamut_server.ladder_live.service import LadderService
from gamut_server.rooms import ConnectionId, CorrelationId, Room, RoomSpec, Send, Who


class ServerPort(Protocol):
    """This node's server, as its cluster side sees it."""

    @property
    def ladder(self) -> LadderService | None:
        """The ladder, once the application has started it."""

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        """Run ``work`` in a task the server cancels when it closes."""

    def deliver(self, send: Send, texts: dict[bool, str] | None = None) -> None:
        """Queue ``send``'s message on its recipients connected here (``texts``: the
        forms already serialised, lean or not)."""

    async def lobby_op(self, op: LobbyOp) -> None:
        """Perform ``op`` on the lobby, here or on the node leading it."""

    def lobby_here(self, op: LobbyOp) -> None:
        """Perform ``op`` on this node's own lobby (this node leads it), in a task."""

    def new_lobby(self, seek_prefix: str) -> None:
        """Start an empty lobby here (this node has just taken the lead), whose seeks'
        ids start with ``seek_prefix``."""

    def listed(self, game: str | None) -> Sequence[RoomSummary]:
        """The rooms this node's lobby lists (of ``game``, or every game)."""

    def lobby_chat(self, count: int) -> Sequence[ChatEntry]:
        """The latest ``count`` chat lines of this node's lobby."""

    def lobby_blocking(self, name: str) -> Blocking | None:
        """``name``'s blocks and challenge setting as this node's lobby holds them, if any."""

    def lobby_connected(self) -> Iterable[Who]:
        """The connections this node's lobby knows."""

    async def room_op(self, room_id: str, op: RoomOp) -> bool:
        """Perform ``op`` on the room ``room_id``, here or on its node; ``False`` if no
        such room is being played."""

    def room_here(self, room_id: str, op: RoomOp, then: Callable[[], None] | None = None) -> bool:
        """Perform ``op`` on the room ``room_id`` of this node, in a task, and call
        ``then`` once it is performed; ``False`` if the room is not in this node's memory."""

    async def open_room(
        self,
        room_id: str,
        spec: RoomSpec,
        members: Sequence[Who],
        reply_to: tuple[ConnectionId, CorrelationId] | None = None,
    ) -> None:
        """Create a room here and perform its start batch."""

    def rooms(self) -> list[tuple[str, Room]]:
        """The rooms in this node's memory, with their ids."""

    def forget_room(self, room_id: str) -> bool:
        """Take the room out of this node's memory without a word (another node holds
        it now); whether it was here."""

    def connections(self) -> Iterable[Connection]:
        """The connections whose sockets this node holds."""

    def connection(self, conn: ConnectionId) -> Connection | None:
        """The connection ``conn`` if its socket is on this node."""

    def name_bindings(self) -> dict[str, str]:
        """Every name bound on this node: a guest's digest in its stored form, or
        ``account``."""

    def blocking(self) -> list[LobbyOp]:
        """The blocks and challenge settings of the players connected here, as lobby
        operations (for a lobby that starts again on a new leader)."""

    def adopt_blocking(self, blocking: Blocking) -> None:
        """A player changed their blocks on another node: so do their connections here."""
