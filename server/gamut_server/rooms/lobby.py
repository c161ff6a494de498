"""The lobby: who is online, open seeks and challenges, pairing, and lobby chat.

Like a room, the lobby is a synchronous state machine: each call returns the effects
for the async layer to perform (see :mod:`gamut_server.rooms.effects`).
"""

from __future__ import annotations

from typing import TypeAlias

from gamut_protocol import (
    AcceptSeek,
    CancelSeek,
    Chat,
    ListGames,
    ListRooms,
    LobbySnapshot,
    RoomSummary,
    Seek,
)
from gamut_server.rooms.effects import CorrelationId, Effect, Who
from gamut_server.rooms.spec import LobbyConfig

LobbyMessage: TypeAlias = ListGames | ListRooms | Seek | CancelSeek | AcceptSeek | Chat
"""The client messages the lobby handles (a ``chat`` without a ``room_id``)."""


class Lobby:
    """Everyone connected, the open seeks, the live rooms' summaries and the lobby chat."""

    def __init__(self, config: LobbyConfig | None = None) -> None:
        """An empty lobby."""
        raise NotImplementedError

    def enter(
        self,
        who: Who,
        now_ms: int,
        *,
        subscribe: bool = True,
        reply_to: CorrelationId | None = None,
    ) -> list[Effect]:
        """A connection was welcomed; with ``subscribe`` it gets the snapshot and updates."""
        raise NotImplementedError

    def leave(self, who: Who, now_ms: int) -> list[Effect]:
        """A connection closed: its seeks and the challenges to it expire."""
        raise NotImplementedError

    def handle(self, who: Who, message: LobbyMessage, now_ms: int) -> list[Effect]:
        """Answer one lobby message: list games or rooms, seek, cancel, accept, chat."""
        raise NotImplementedError

    def room_changed(self, summary: RoomSummary) -> list[Effect]:
        """A room appeared or changed (from a room's ``RoomChanged`` effect)."""
        raise NotImplementedError

    def room_removed(self, room_id: str) -> list[Effect]:
        """A room left memory; it leaves the lobby's list."""
        raise NotImplementedError

    def snapshot(self, who: Who) -> LobbySnapshot:
        """The lobby as ``who`` sees it (open seeks, challenges to them, rooms, chat)."""
        raise NotImplementedError

    def rooms_of(self, name: str) -> tuple[str, ...]:
        """The unfinished rooms where ``name`` has a seat (for ``welcome.rooms``)."""
        raise NotImplementedError
