"""The way the driver reaches the other nodes of a cluster (see :mod:`gamut_server.cluster`).

The driver calls the cluster only through :class:`ClusterPort`, which
:class:`~gamut_server.cluster.node.ClusterNode` implements; a server alone has none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from gamut_server.core.ops import Blocking, LobbyOp, RoomOp
from gamut_server.rooms import ConnectionId, OpenRoom, SeekKept, Send


class ClusterPort(Protocol):
    """What the driver asks of the cluster when it is one node of several
    (:mod:`gamut_server.cluster`); a server alone has none."""

    def deliver_elsewhere(self, send: Send, conns: Sequence[ConnectionId]) -> None:
        """Send ``send``'s message to ``conns``, connections of other nodes."""

    async def lobby_elsewhere(self, op: LobbyOp) -> bool:
        """Send ``op`` to the node leading the lobby; ``False`` if this node leads it."""

    async def room_elsewhere(self, room_id: str, op: RoomOp) -> bool:
        """Send ``op`` to the node that owns ``room_id``; ``False`` if no node does."""

    async def open_elsewhere(self, effect: OpenRoom) -> bool:
        """Open the room on the node of the connection it answers, waiting until it has;
        ``False`` if that is this node."""

    async def room_opened(self, room_id: str) -> None:
        """This node owns the new room ``room_id`` from now on."""

    async def room_closed(self, room_id: str) -> None:
        """The room ``room_id`` left this node's memory."""

    async def room_lost(self, room_id: str) -> None:
        """The room ``room_id`` left this node's memory because another node holds it:
        this node's connections following it resume it there."""

    def seek_kept(self, effect: SeekKept) -> None:
        """A seek opened or closed in the lobby this node leads: its author's node keeps
        (or drops) its copy, for the next leader."""

    def share_blocking(self, blocking: Blocking) -> None:
        """Tell every other node of a player's blocks, for their connections there."""
