"""Room operations waiting for a room whose node died to come back on another node.

Between a node's death and the takeover of its rooms (a lease, a few seconds), what
players send to those rooms is held here, then passed to the room's new node. What is
still waiting after :data:`HOLD_S` is answered with an error saying why.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Final

from gamut_protocol import ErrorMessage
from gamut_protocol.errors import UNAVAILABLE
from gamut_server.core.ops import Handle, RoomOp
from gamut_server.rooms import Send

HOLD_S: Final = 30.0
"""Seconds an operation waits for its room to come back."""

MAX_HELD: Final = 64
"""Most operations held for one room; more are refused at once."""

GONE: Final = (
    "the server holding this game has stopped and the game has not come back yet; "
    "try again in a few seconds"
)


class HeldOps:
    """Operations held per room."""

    def __init__(self, deliver: Callable[[Send], None]) -> None:
        """Held operations, refused through ``deliver`` when they wait too long."""
        self._deliver = deliver
        self._held: dict[str, list[RoomOp]] = {}

    def hold(self, room_id: str, op: RoomOp) -> None:
        """Keep ``op`` until :meth:`release` (or refuse it after :data:`HOLD_S`)."""
        waiting = self._held.get(room_id)
        if waiting is None:
            waiting = self._held[room_id] = []
            asyncio.get_running_loop().call_later(HOLD_S, self._expire, room_id)
        if len(waiting) >= MAX_HELD:
            self._refuse(op)
        else:
            waiting.append(op)

    def release(self, room_id: str) -> list[RoomOp]:
        """The operations held for ``room_id``, in order, no longer held."""
        return self._held.pop(room_id, [])

    def _expire(self, room_id: str) -> None:
        """Refuse what still waits for ``room_id``."""
        for op in self.release(room_id):
            self._refuse(op)

    def _refuse(self, op: RoomOp) -> None:
        """Tell the sender of ``op`` (if it asked something) that its room is not back."""
        if isinstance(op, Handle):
            answer = ErrorMessage.answering(op.message, UNAVAILABLE, GONE)
            self._deliver(Send((op.who.conn,), answer))
