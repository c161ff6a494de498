"""A refused room or lobby message: the error code and sentence to answer it with."""

from __future__ import annotations

from gamut_protocol import ErrorCode, ErrorMessage
from gamut_protocol.common import MAX_TEXT_LENGTH


class RefusalError(Exception):
    """Raised inside a room or the lobby when a message must be answered with an error."""

    def __init__(self, code: ErrorCode, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        """The protocol's error code."""
        self.message = message
        """What went wrong, for people."""
        self.reason = reason
        """For ``illegal_move``: the engine's reason code."""

    def to_message(
        self, request: str, reply_to: str | int | None, room_id: str | None = None
    ) -> ErrorMessage:
        """The ``error`` message answering a ``request`` message with id ``reply_to``."""
        return ErrorMessage(
            code=self.code,
            message=clip(self.message),
            request=request,
            reply_to=reply_to,
            room_id=room_id,
            reason=self.reason,
        )


def clip(text: str) -> str:
    """``text`` cut to the longest sentence the protocol carries, ending in ``…`` if cut."""
    if len(text) <= MAX_TEXT_LENGTH:
        return text
    return text[: MAX_TEXT_LENGTH - 1] + "…"
