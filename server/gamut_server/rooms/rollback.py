"""Going back when a batch could not be stored: a room's mark, and what people are told.

A room changes its state as it makes a batch, before the async layer stores it. If a
write of the batch fails, nothing of it was stored or sent, so the room goes back to
the mark taken before the call (:class:`RoomMark`): the moves played since are
forgotten, the clocks, offers and numbered events are as they were, and the same
message can be sent again once storage answers. Who follows the room is not rolled
back: a connection that joined did join.

:func:`unstored_notices` says what people are told: the asker that its message was not
played and to send it again, the others that the game waits for its storage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from gamut_protocol import ChatEntry, ErrorMessage, GameRated, RoomSummary
from gamut_protocol.errors import UNAVAILABLE
from gamut_server.rooms.effects import Effect, Send, StoreAbort, StoreMove, StoreResult, Who
from gamut_server.rooms.match import MatchMark

STORAGE_DOWN: Final = "the game's storage is failing"

NOT_PLAYED: Final = (
    f"the move could not be saved ({STORAGE_DOWN}), so it was not played: "
    "please play it again in a moment"
)
"""What a player whose move was not stored is told."""

NOT_SAID: Final = (
    f"the chat line could not be saved ({STORAGE_DOWN}), so nobody saw it: "
    "please send it again in a moment"
)
"""What someone whose chat line was not stored is told."""

NOT_DONE: Final = (
    f"this could not be saved ({STORAGE_DOWN}), so nothing changed: please try again in a moment"
)
"""What someone whose other request was not stored is told."""

WAITING: Final = (
    f"the game is waiting for its storage: a move or the game's end could not be saved "
    f"({STORAGE_DOWN}) and was not played; the game goes on as soon as storage answers"
)
"""What everyone else following the room is told when a move or an end was not stored."""

_TOLD: Final = {"move": NOT_PLAYED, "chat": NOT_SAID}


@dataclass(frozen=True, slots=True)
class RoomMark:
    """What a room's call may change, as it was before the call."""

    match: MatchMark
    last_seq: int
    chat: tuple[ChatEntry, ...]
    draw_offer: int | None
    rematch_offer: int | None
    rematch_room: str | None
    ai_pending: int | None
    finished_at_ms: int | None
    rating: GameRated | None
    listed: tuple[RoomSummary | None, tuple[str, int] | None, int]


def stores_play(batch: Sequence[Effect]) -> bool:
    """Whether ``batch`` stores a move or the game's end (the others must be told)."""
    return any(isinstance(effect, StoreMove | StoreResult | StoreAbort) for effect in batch)


def unstored_notices(
    room_id: str,
    everyone: Sequence[int],
    batch: Sequence[Effect],
    asker: tuple[Who, str, str | int | None] | None,
) -> list[Send]:
    """What to send when ``batch`` could not be stored: an ``unavailable`` error answering
    the asker's request (``(who, request type, id)``), and, if a move or an end was
    lost, an ``unavailable`` notice to ``everyone`` else following room ``room_id``."""
    effects: list[Send] = []
    skip = None
    if asker is not None:
        who, request, reply_to = asker
        skip = who.conn
        sentence = _TOLD.get(request, NOT_DONE)
        answer = ErrorMessage(
            code=UNAVAILABLE, message=sentence, request=request, reply_to=reply_to, room_id=room_id
        )
        effects.append(Send((who.conn,), answer))
    others = tuple(conn for conn in everyone if conn != skip)
    if others and stores_play(batch):
        notice = ErrorMessage(code=UNAVAILABLE, message=WAITING, room_id=room_id)
        effects.append(Send(others, notice))
    return effects
