"""What clients speaking older protocol versions are sent instead of today's messages.

Before :data:`~gamut_protocol.BOARD_VERSION` a room snapshot carries its board in the
``square`` or ``hex`` form; a board with neither form cannot reach such a client, which
is told so in a sentence instead.
"""

from __future__ import annotations

from gamut_protocol import (
    BOARD_VERSION,
    ErrorMessage,
    GameDescriptor,
    RoomSnapshot,
    ServerMessage,
    descriptor_for,
    dump,
    snapshot_for,
)
from gamut_protocol.errors import UNAVAILABLE

OLDEST_WITHOUT_BOARDS = BOARD_VERSION - 1
"""The newest version that does not know ``board`` geometries."""


def older_text(message: ServerMessage) -> str | None:
    """The text clients before :data:`BOARD_VERSION` get for ``message``, when it differs."""
    if not isinstance(message, RoomSnapshot) or message.game.geometry.kind != "board":
        return None
    older = snapshot_for(message, OLDEST_WITHOUT_BOARDS)
    if older is not None:
        return dump(older)
    return dump(
        ErrorMessage(
            code=UNAVAILABLE,
            message=f"{message.game.title} is played on a board that only clients speaking "
            f"protocol version {BOARD_VERSION} or later can draw: upgrade the client",
            room_id=message.room_id,
            reply_to=message.reply_to,
        )
    )


def older_descriptor(descriptor: GameDescriptor) -> GameDescriptor:
    """``descriptor`` with its board in the ``square`` or ``hex`` form, where it has one."""
    return descriptor_for(descriptor, OLDEST_WITHOUT_BOARDS) or descriptor


class Wording:
    """The texts of one message for every client, the older form made only if one needs it."""

    def __init__(self, message: ServerMessage) -> None:
        self.message = message
        self._older: str | None = None
        self._made = False

    def text_for(self, version: int, text: str) -> str:
        """The text to send a client speaking ``version``, ``text`` being today's."""
        if version >= BOARD_VERSION:
            return text
        if not self._made:
            self._older, self._made = older_text(self.message), True
        return text if self._older is None else self._older
