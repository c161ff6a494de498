"""The server as a cluster's node sees it: the hub and the driver behind one port.

A node's cluster side (:mod:`gamut_server.cluster`) asks the server for what other
nodes' envelopes need here (deliver a message, perform a room's or the lobby's
operation, list the rooms and the connections) through
:class:`~gamut_server.cluster.port.ServerPort`; :class:`ServerSide` answers from the
hub and the driver, so their fields stay theirs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from typing import Any

from gamut_protocol import ChatEntry, RoomSummary
from gamut_server.core.hub import Hub
from gamut_server.core.ops import Blocking, LobbyOp, RoomOp, lobby_effects
from gamut_server.edge.connection import Connection
from gamut_server.ladder_live.service import LadderService
from gamut_server.rooms import ConnectionId, CorrelationId, Lobby, Room, RoomSpec, Send, Who


class ServerSide:
    """The port of a cluster's node into ``hub`` (and its driver)."""

    def __init__(self, hub: Hub) -> None:
        """The port into ``hub``."""
        self._hub = hub
        self._driver = hub.driver

    @property
    def ladder(self) -> LadderService | None:
        """The ladder, once the application has started it."""
        return self._hub.ladder

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        """Run ``work`` in a task the driver cancels when it closes."""
        self._driver.spawn(work, name)

    def deliver(self, send: Send, texts: dict[bool, str] | None = None) -> None:
        """Queue ``send``'s message on its recipients connected here."""
        self._driver.deliver(send, texts)

    async def lobby_op(self, op: LobbyOp) -> None:
        """Perform ``op`` on the lobby, here or on the node leading it."""
        await self._driver.lobby_op(op)

    def lobby_here(self, op: LobbyOp) -> None:
        """Perform ``op`` on this node's own lobby, in a task."""
        driver = self._driver
        batch = lobby_effects(driver.lobby, op, driver.now_ms())
        driver.spawn(driver.perform(batch), name="lobby-batch")

    def new_lobby(self, seek_prefix: str) -> None:
        """Start an empty lobby with the same settings, its seeks' ids starting with
        ``seek_prefix``."""
        config = dataclasses.replace(self._driver.lobby.config, seek_prefix=seek_prefix)
        self._driver.lobby = Lobby(config)

    def listed(self, game: str | None) -> Sequence[RoomSummary]:
        """The rooms this node's lobby lists."""
        return self._driver.lobby.listed(game)

    def lobby_chat(self, count: int) -> Sequence[ChatEntry]:
        """The latest ``count`` chat lines of this node's lobby."""
        return self._driver.lobby.recent_chat(count)

    def lobby_blocking(self, name: str) -> Blocking | None:
        """``name``'s blocks and challenge setting as this node's lobby holds them, if any."""
        book = self._driver.lobby.blocks
        blocked, source = book.blocked_by(name), book.challenges_from(name)
        if not blocked and source == "everyone":
            return None
        return Blocking(name, blocked, source)

    def lobby_connected(self) -> Iterable[Who]:
        """The connections this node's lobby knows."""
        return self._driver.lobby.connected()

    async def room_op(self, room_id: str, op: RoomOp) -> bool:
        """Perform ``op`` on the room ``room_id``, here or on its node."""
        return await self._driver.room_op(room_id, op)

    def room_here(self, room_id: str, op: RoomOp, then: Callable[[], None] | None = None) -> bool:
        """Perform ``op`` on the room ``room_id`` of this node in a task, if it is here
        (if the room turns out to have moved to another node, ``op`` goes there), and
        call ``then`` once it is performed."""
        driver = self._driver
        if room_id not in driver.rooms:
            return False
        work = driver.room_op(room_id, op)
        driver.spawn(work if then is None else _then(work, then), name=f"room-{room_id}")
        return True

    async def open_room(
        self,
        room_id: str,
        spec: RoomSpec,
        members: Sequence[Who],
        reply_to: tuple[ConnectionId, CorrelationId] | None = None,
    ) -> None:
        """Create a room here and perform its start batch."""
        await self._driver.open_room(room_id, spec, members, reply_to)

    def rooms(self) -> list[tuple[str, Room]]:
        """The rooms in this node's memory, with their ids."""
        return [(room_id, handle.room) for room_id, handle in self._driver.rooms.items()]

    def forget_room(self, room_id: str) -> bool:
        """Take the room out of this node's memory without a word (another node holds it)."""
        return self._driver.forget_room(room_id)

    def connections(self) -> Iterable[Connection]:
        """The connections whose sockets this node holds."""
        return self._hub.connections.values()

    def connection(self, conn: ConnectionId) -> Connection | None:
        """The connection ``conn`` if its socket is on this node."""
        return self._hub.connections.get(conn)

    def name_bindings(self) -> dict[str, str]:
        """Every name bound on this node: a guest's digest in its stored form, or ``account``."""
        return self._hub.names.bindings()

    def blocking(self) -> list[LobbyOp]:
        """The blocks and challenge settings of the players connected here, as lobby
        operations (for a lobby that starts again on a new leader)."""
        return self._hub.safety.lobby_ops()

    def adopt_blocking(self, blocking: Blocking) -> None:
        """A player changed their blocks on another node: so do their connections here."""
        self._hub.safety.adopt(blocking)


async def _then(work: Awaitable[object], then: Callable[[], None]) -> None:
    """Await ``work``, then call ``then``."""
    await work
    then()
