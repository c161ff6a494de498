"""The lobby's chat: its latest lines, kept in memory only (they have no sequence number
and are not stored), each seen by everyone but the players who blocked its author."""

from __future__ import annotations

from collections import deque

from gamut_protocol import ChatEntry
from gamut_server.rooms.blocks import BlockBook


class LobbyChat:
    """The latest lobby chat lines, oldest first, at most ``history`` of them."""

    def __init__(self, history: int) -> None:
        """No lines yet; the oldest line goes when ``history`` are kept."""
        self._lines: deque[ChatEntry] = deque(maxlen=history)

    def add(self, author: str, text: str) -> None:
        """Keep a line ``author`` said."""
        self._lines.append(ChatEntry(author=author, text=text))

    def remove(self, author: str, text: str) -> bool:
        """Remove each line by ``author`` saying ``text``; whether there was one."""
        kept = [e for e in self._lines if (e.author, e.text) != (author, text)]
        if len(kept) == len(self._lines):
            return False
        self._lines.clear()
        self._lines.extend(kept)
        return True

    def recent(self, count: int) -> tuple[ChatEntry, ...]:
        """The latest ``count`` lines, oldest first."""
        return tuple(self._lines)[-count:]

    def seen_by(self, name: str, blocks: BlockBook) -> tuple[ChatEntry, ...]:
        """The lines the player ``name`` sees: all but those of players they blocked."""
        return tuple(e for e in self._lines if not blocks.blocks(name, e.author))
