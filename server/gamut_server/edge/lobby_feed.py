"""The lobby's updates to one subscriber, coalesced: the latest word on each subject.

Lobby updates (a seek opened or gone, a room changed or gone, someone came or left, a
lobby chat line) are not queued frame by frame like a room's events: each subscriber
keeps at most one pending frame per subject (a seek, a room, a player), replaced by
the newest as things change, plus the last few chat lines. A subscriber that reads
slowly therefore gets the current picture when it catches up, and the memory it
costs is bounded by the lobby's own size, never by how busy the lobby was; nobody is
disconnected for following the lobby.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from gamut_protocol import (
    ChatLine,
    Presence,
    RoomRemoved,
    RoomUpdated,
    SeekCreated,
    SeekRemoved,
    ServerMessage,
)

CHAT_KEPT: Final = 50
"""Lobby chat lines kept for a subscriber that is behind; older ones are skipped."""

Change: TypeAlias = Literal["new", "gone", "changed"]
"""What an update says of its subject: it appeared, it went, or it changed."""

_chat_numbers = itertools.count()


@dataclass(frozen=True, slots=True)
class Subject:
    """What a lobby update is about, and what it says of it."""

    key: Hashable
    """The seek, room, player or chat line concerned."""
    change: Change
    """Whether the update makes it appear, go, or change."""
    chat: bool = False
    """Whether it is a chat line (only the last :data:`CHAT_KEPT` are kept)."""


def lobby_subject(message: ServerMessage) -> Subject | None:
    """The subject of a lobby broadcast; ``None`` for anything else (answers included)."""
    if message.reply_to is not None:
        return None
    match message:
        case SeekCreated():
            return Subject(("seek", message.seek.seek_id), "new")
        case SeekRemoved():
            return Subject(("seek", message.seek_id), "gone")
        case RoomUpdated():
            return Subject(("room", message.room.room_id), "changed")
        case RoomRemoved():
            return Subject(("room", message.room_id), "gone")
        case Presence():
            return Subject(("presence", message.player.name), "changed")
        case ChatLine() if message.room_id is None:
            return Subject(("chat", next(_chat_numbers)), "new", chat=True)
    return None


class LobbyBacklog:
    """The lobby frames waiting for one subscriber, at most one per subject."""

    def __init__(self, chat_kept: int = CHAT_KEPT) -> None:
        """Nothing pending."""
        self._pending: dict[Hashable, tuple[str, Change]] = {}
        self._chat: deque[Hashable] = deque()
        self._chat_kept = chat_kept

    def __len__(self) -> int:
        """How many frames are pending."""
        return len(self._pending)

    def put(self, subject: Subject, text: str) -> None:
        """Make ``text`` the pending word on ``subject``.

        A subject that appeared and went before the subscriber heard of it is dropped
        altogether; otherwise the newest frame replaces the pending one in its place.
        """
        key = subject.key
        pending = self._pending.get(key)
        if pending is not None and pending[1] == "new" and subject.change == "gone":
            del self._pending[key]
            return
        change = pending[1] if pending is not None and pending[1] == "new" else subject.change
        self._pending[key] = (text, change)
        if subject.chat:
            self._keep_chat(key)

    def pop(self) -> str | None:
        """The oldest pending frame, or ``None``."""
        if not self._pending:
            return None
        key = next(iter(self._pending))
        text, _ = self._pending.pop(key)
        return text

    def _keep_chat(self, key: Hashable) -> None:
        """Remember a chat line, forgetting the oldest beyond :data:`CHAT_KEPT`."""
        self._chat.append(key)
        while len(self._chat) > self._chat_kept:
            self._pending.pop(self._chat.popleft(), None)
