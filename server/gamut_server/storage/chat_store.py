"""Rooms' chat lines: one stored under its sequence number, and a room's read back.

:class:`ChatStorage` is a mixin of the :class:`~gamut_server.storage.Store`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.exc import IntegrityError

from gamut_server.records.games import ChatLine
from gamut_server.storage import reads, writes
from gamut_server.storage.errors import DuplicateChatError
from gamut_server.storage.mixin import StoreMixin, aware_now


class ChatStorage(StoreMixin):
    """The rooms' chat lines, numbered per room."""

    async def record_chat(
        self,
        room: str,
        *,
        seq: int,
        author: str,
        text: str,
        at: datetime | None = None,
        epoch: int | None = None,
    ) -> ChatLine:
        """Store one chat line; raises :class:`DuplicateChatError` if ``seq`` is taken, and
        with ``epoch``, :class:`FencedError` as :meth:`record_move` does."""
        line = ChatLine(room=room, seq=seq, author=author, text=text, at=aware_now(at))
        try:
            await self._transact(lambda conn: writes.insert_chat(conn, line, epoch))
        except IntegrityError as error:
            raise DuplicateChatError(room, seq) from error
        return line

    async def chat_lines(
        self, room: str, *, after_seq: int = 0, limit: int | None = None
    ) -> list[ChatLine]:
        """A room's chat lines after ``after_seq``, oldest first (for replay on resume)."""
        async with self._read() as conn:
            return await reads.chat_lines(conn, room, after_seq, limit)
