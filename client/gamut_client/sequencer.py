"""Room sequence numbers on the client side: deliver each room event once, in order.

The server numbers every event of a room (1, 2, 3…) and a ``room_snapshot`` carries
the number of the last event it includes. The :class:`Sequencer` keeps the last number
delivered in each room a connection follows: it delivers the next one, drops one it
has already delivered (a replay overlapping what arrived before a drop), and asks for a
``resume`` when it sees a gap. After a reconnection, :meth:`Sequencer.resumes` lists the
``resume`` message for every room, so the caller sees one continuous stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gamut_protocol import (
    ROOM_EVENT_TYPES,
    ErrorMessage,
    GameOver,
    Resume,
    RoomLeft,
    RoomSnapshot,
    ServerMessage,
)

ROOM_GONE_ERRORS = frozenset({"unknown_room", "not_in_room"})
"""Errors to a ``resume`` meaning the room cannot be followed any more."""


@dataclass(frozen=True, slots=True)
class Admission:
    """What to do with one incoming message."""

    deliver: bool
    """Whether to pass the message on."""
    resume: Resume | None = None
    """A ``resume`` to send because the message revealed a gap."""


DELIVER = Admission(deliver=True)
DROP = Admission(deliver=False)


class Sequencer:
    """The last sequence number delivered in each followed room, and the gaps asked about."""

    def __init__(self) -> None:
        self._last: dict[str, int] = {}
        self._finished: set[str] = set()
        self._asked: dict[str, int] = {}

    @property
    def rooms(self) -> Mapping[str, int]:
        """Each followed room and the last sequence number delivered in it."""
        return self._last

    def is_finished(self, room_id: str) -> bool:
        """Whether a ``game_over`` (or a finished snapshot) was delivered for the room."""
        return room_id in self._finished

    def admit(self, message: ServerMessage) -> Admission:
        """Decide about ``message`` and update the room's sequence number if it is delivered."""
        if isinstance(message, RoomSnapshot):
            self._follow(message)
            return DELIVER
        if isinstance(message, RoomLeft):
            self.forget(message.room_id)
            return DELIVER
        seq = getattr(message, "seq", None)
        room_id = getattr(message, "room_id", None)
        if message.type not in ROOM_EVENT_TYPES or seq is None or room_id is None:
            return DELIVER
        return self._admit_event(message, room_id, seq)

    def resumes(self) -> list[Resume]:
        """A ``resume`` for every followed room, to send after a reconnection."""
        self._asked = dict(self._last)
        return [Resume(room_id=room, after_seq=seq) for room, seq in self._last.items()]

    def refused(self, error: ErrorMessage) -> None:
        """Note the server's refusal of a ``resume``: a room that is gone is forgotten."""
        if error.request == "resume" and error.room_id and error.code in ROOM_GONE_ERRORS:
            self.forget(error.room_id)

    def forget(self, room_id: str) -> None:
        """Stop following ``room_id``."""
        self._last.pop(room_id, None)
        self._asked.pop(room_id, None)
        self._finished.discard(room_id)

    def _follow(self, snapshot: RoomSnapshot) -> None:
        """A snapshot replaces everything known about its room."""
        self._last[snapshot.room_id] = snapshot.seq
        self._asked.pop(snapshot.room_id, None)
        if snapshot.status == "running":
            self._finished.discard(snapshot.room_id)
        else:
            self._finished.add(snapshot.room_id)

    def _admit_event(self, message: ServerMessage, room_id: str, seq: int) -> Admission:
        """Deliver the next event of a room, drop a repeat, ask about a gap."""
        last = self._last.get(room_id)
        if last is None:
            return DELIVER
        if seq <= last:
            return DROP
        if seq > last + 1:
            return self._gap(room_id, last)
        self._last[room_id] = seq
        if isinstance(message, GameOver):
            self._finished.add(room_id)
        return DELIVER

    def _gap(self, room_id: str, last: int) -> Admission:
        """Events are missing after ``last``: ask once for them, and hold this one back."""
        if self._asked.get(room_id) == last:
            return DROP
        self._asked[room_id] = last
        return Admission(deliver=False, resume=Resume(room_id=room_id, after_seq=last))
