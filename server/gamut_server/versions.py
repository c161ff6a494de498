"""What clients speaking older protocol versions are sent instead of today's messages.

Before :data:`~gamut_protocol.BOARD_VERSION` a room snapshot carries its board in the
``square`` or ``hex`` form; a board with neither form cannot reach such a client, which
is told so in a sentence instead.
"""

from __future__ import annotations

from gamut_protocol import (
    BOARD_VERSION,
    ErrorMessage,
    RoomSnapshot,
    ServerMessage,
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


def text_for(version: int, text: str, older: str | None) -> str:
    """The text to send a client speaking ``version``: ``older`` where it needs it."""
    return older if older is not None and version < BOARD_VERSION else text
