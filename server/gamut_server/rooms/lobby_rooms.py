"""The lobby's list of running rooms.

It keeps each listed room's summary. A move in a listed room while nobody follows the
lobby only notes the ply reached; the summaries are brought up to date when the list
is next read.
"""

from __future__ import annotations

from gamut_protocol import RoomSummary
from gamut_protocol.common import MAX_LIST_LENGTH


class RoomBoard:
    """The running rooms the lobby lists, in the order they were first listed."""

    def __init__(self) -> None:
        """An empty list."""
        self._rooms: dict[str, RoomSummary] = {}
        self._plies: dict[str, int] = {}
        """Plies reached in listed rooms while nobody followed the lobby, not yet written
        into their summaries (done when the list is next read)."""

    def put(self, summary: RoomSummary) -> None:
        """List ``summary``, a new room's or a listed room's changed one."""
        self._rooms[summary.room_id] = summary
        self._plies.pop(summary.room_id, None)

    def moved(self, room_id: str, ply: int, *, followed: bool) -> RoomSummary | None:
        """A move reached ``ply`` in room ``room_id``. If the lobby is ``followed``, the
        room's summary brought up to date, to be sent; else ``None``, and the ply is
        written in when the list is next read. ``None`` too for a room not listed."""
        summary = self._rooms.get(room_id)
        if summary is None:
            return None
        if not followed:
            self._plies[room_id] = ply
            return None
        self._plies.pop(room_id, None)
        summary = self._rooms[room_id] = summary.model_copy(update={"ply": ply})
        return summary

    def remove(self, room_id: str) -> bool:
        """Take room ``room_id`` off the list; whether it was listed."""
        self._plies.pop(room_id, None)
        return self._rooms.pop(room_id, None) is not None

    def listing(self, game: str | None) -> tuple[RoomSummary, ...]:
        """The rooms known (of ``game``, if given), newest last, at most a list's length."""
        for room_id, ply in self._plies.items():
            self._rooms[room_id] = self._rooms[room_id].model_copy(update={"ply": ply})
        self._plies.clear()
        rooms = [room for room in self._rooms.values() if game is None or room.game == game]
        return tuple(rooms[-MAX_LIST_LENGTH:])
