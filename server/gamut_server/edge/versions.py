"""What clients speaking older protocol versions are sent instead of today's messages.

Before :data:`~gamut_protocol.GAME_LOOK_VERSION` a room snapshot's game has no colours
nor pick lines. Before :data:`~gamut_protocol.BOARD_VERSION` a room snapshot carries its
board in the ``square`` or ``hex`` form; a board with neither form cannot reach such a
client, which is told so in a sentence instead. Before :data:`~gamut_protocol.RATINGS_VERSION`
messages lose the fields people's ratings added (a rated seek's range and its author's
rating, a seat's ``provisional``, a snapshot's ``ratings``), and ``game_rated`` is not
sent at all. Before :data:`~gamut_protocol.TOURNAMENTS_VERSION` no
``tournament_status`` is sent.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Final

from gamut_protocol import (
    BOARD_VERSION,
    GAME_LOOK_VERSION,
    RATINGS_VERSION,
    TOURNAMENTS_VERSION,
    ChatRemoved,
    ErrorMessage,
    GameDescriptor,
    GameRated,
    RoomSnapshot,
    ServerMessage,
    TournamentStatus,
    descriptor_for,
    dump,
    snapshot_for,
)
from gamut_protocol.common import SAFETY_VERSION
from gamut_protocol.errors import OLDER_CODES, UNAVAILABLE

OLDEST_WITHOUT_BOARDS = BOARD_VERSION - 1
"""The newest version that does not know ``board`` geometries."""

RATING_FIELDS: Final = frozenset(
    {"rating_range", "author_rating", "author_provisional", "provisional"}
)
"""Fields, at any depth, that clients before :data:`RATINGS_VERSION` do not know."""

SNAPSHOT_RATINGS: Final = "ratings"
"""The field of a room snapshot those clients do not know."""


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


def plain_text(message: ServerMessage) -> str | None:
    """The text clients before :data:`GAME_LOOK_VERSION` get for ``message``: a snapshot
    without its game's colours and pick lines; ``None`` when it is today's text."""
    if not isinstance(message, RoomSnapshot):
        return None
    plain = snapshot_for(message, GAME_LOOK_VERSION - 1)
    return None if plain is None or plain is message else dump(plain)


def older_descriptor(descriptor: GameDescriptor) -> GameDescriptor:
    """``descriptor`` with its board in the ``square`` or ``hex`` form, where it has one."""
    return descriptor_for(descriptor, OLDEST_WITHOUT_BOARDS) or descriptor


def without_ratings(message: ServerMessage, text: str) -> str | None:
    """``text`` (``message`` serialised) as clients before :data:`RATINGS_VERSION` read it:
    without the fields they do not know; ``None`` for a message they must not get."""
    if isinstance(message, GameRated):
        return None
    if not may_carry_ratings(type(message)):
        return text
    if not any(f'"{field}"' in text for field in (*RATING_FIELDS, SNAPSHOT_RATINGS)):
        return text
    tree = json.loads(text)
    if isinstance(message, RoomSnapshot):
        tree.pop(SNAPSHOT_RATINGS, None)
    return json.dumps(_strip(tree), ensure_ascii=False, separators=(",", ":"))


@cache
def may_carry_ratings(kind: type[ServerMessage]) -> bool:
    """Whether a message of ``kind`` has a field, at any depth, that clients before
    :data:`RATINGS_VERSION` do not know (read once from its JSON schema): the others,
    ``move_made`` among them, go to those clients as they are."""
    names: set[str] = set()
    pending: list[Any] = [kind.model_json_schema()]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict):
                names.update(node["properties"])
            pending += node.values()
        elif isinstance(node, list):
            pending += node
    return bool(names & {*RATING_FIELDS, SNAPSHOT_RATINGS})


def _strip(tree: Any) -> Any:
    """``tree`` without :data:`RATING_FIELDS` at any depth."""
    if isinstance(tree, dict):
        return {key: _strip(value) for key, value in tree.items() if key not in RATING_FIELDS}
    if isinstance(tree, list):
        return [_strip(item) for item in tree]
    return tree


def error_for(error: ErrorMessage, version: int) -> ErrorMessage:
    """``error`` as a client speaking ``version`` reads it: before
    :data:`SAFETY_VERSION`, the codes it added become older ones."""
    if version >= SAFETY_VERSION or error.code not in OLDER_CODES:
        return error
    return error.model_copy(update={"code": OLDER_CODES[error.code]})


@cache
def worded_alike(kind: type[ServerMessage]) -> bool:
    """Whether every client, whatever its version, gets a message of ``kind`` as today's
    text (``move_made`` among them): no older form, no field to strip, no one left out."""
    differs = (TournamentStatus, ChatRemoved, ErrorMessage, RoomSnapshot, GameRated)
    return not issubclass(kind, differs) and not may_carry_ratings(kind)


class Wording:
    """The texts of one message for every client, the older forms made only if one needs
    them."""

    def __init__(self, message: ServerMessage) -> None:
        self.message = message
        self._alike = worded_alike(type(message))
        self._older: str | None = None
        self._made = False
        self._plain: str | None = None
        self._plain_made = False
        self._unrated: dict[str, str | None] = {}

    def text_for(self, version: int, text: str) -> str | None:
        """The text to send a client speaking ``version``, ``text`` being today's;
        ``None`` when that client is not to get the message."""
        if self._alike:
            return text
        if version < TOURNAMENTS_VERSION and isinstance(self.message, TournamentStatus):
            return None
        if version < SAFETY_VERSION and isinstance(self.message, ChatRemoved):
            return None
        if version < SAFETY_VERSION and isinstance(self.message, ErrorMessage):
            older = error_for(self.message, version)
            if older is not self.message:
                return dump(older)
        if version < BOARD_VERSION:
            if not self._made:
                self._older, self._made = older_text(self.message), True
            text = text if self._older is None else self._older
        elif version < GAME_LOOK_VERSION:
            if not self._plain_made:
                self._plain, self._plain_made = plain_text(self.message), True
            text = text if self._plain is None else self._plain
        if version >= RATINGS_VERSION:
            return text
        if text not in self._unrated:
            self._unrated[text] = without_ratings(self.message, text)
        return self._unrated[text]
