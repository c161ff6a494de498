"""Queuing one message of a room or the lobby on the connections that get it.

Each form of the message (the whole one and, for clients of protocol version 3 or
later, the lean one) is serialised once however many recipients get it; a client
speaking a version before boards of any shape gets the older form of a room snapshot
(:mod:`gamut_server.edge.versions`); lobby updates are queued by subject
(:mod:`gamut_server.edge.lobby_feed`). Queuing never waits for a client (see
:mod:`gamut_server.edge.connection`). Whoever gets a room's snapshot or events follows
the room from then on, so its drop is reported to that room.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from gamut_protocol import (
    LEAN_MOVES_VERSION,
    ChatLine,
    MoveMade,
    RoomEvent,
    RoomLeft,
    RoomSnapshot,
    ServerMessage,
    dump,
)
from gamut_protocol.common import name_key
from gamut_server.core.move_texts import MoveTexts
from gamut_server.edge.connection import Connection
from gamut_server.edge.lobby_feed import lobby_subject
from gamut_server.edge.versions import Wording
from gamut_server.rooms import ConnectionId, Send


def deliver_here(
    effect: Send,
    connections: Mapping[int, Connection],
    texts: dict[bool, str],
    moves: MoveTexts | None = None,
) -> list[ConnectionId]:
    """Queue ``effect``'s message on each recipient in ``connections``; the recipients
    not there (connections of other nodes of a cluster, or gone).

    ``texts`` holds the forms already serialised (lean or not), and gets those made here;
    ``moves`` writes a ``move_made``'s forms from one serialisation of it.
    """
    wording = Wording(effect.message)
    lobby = lobby_subject(effect.message)
    followed, left = _room_followed(effect.message)
    reply_to = getattr(effect.message, "reply_to", None)
    elsewhere: list[ConnectionId] = []
    for conn_id in effect.to:
        conn = connections.get(conn_id)
        if conn is None:
            elsewhere.append(conn_id)
            continue
        if conn.in_flight or conn.lobby_in_flight:
            _settle(conn, reply_to, followed)
        if followed is not None:
            conn.rooms.add(followed)
        elif left is not None:
            conn.rooms.discard(left)
        if conn.blocked:
            shown = for_blocker(effect.message, conn.blocked)
            if shown is not effect.message:
                worded = (
                    None if shown is None else Wording(shown).text_for(conn.protocol, dump(shown))
                )
                if worded is not None:
                    conn.send_text(worded)
                continue
        lean = effect.lean is not None and conn.protocol >= LEAN_MOVES_VERSION
        text = texts.get(lean)
        if text is None:
            form = effect.lean if lean and effect.lean else effect.message
            if moves is not None and isinstance(form, MoveMade):
                text = texts[lean] = moves.text(form)
            else:
                text = texts[lean] = dump(form)
        worded = wording.text_for(conn.protocol, text)
        if worded is not None:
            conn.send_text(worded, lobby)
    return elsewhere


HIDDEN_LINE: Final = "(a line from a player you blocked)"
"""What a room chat line of a blocked player reads for the blocker: the line keeps its
number, so that the room's events stay in sequence, but not its words."""


def for_blocker(message: ServerMessage, blocked: frozenset[str]) -> ServerMessage | None:
    """``message`` as a player who blocked the names ``blocked`` (folded) gets it: a lobby
    chat line of theirs not at all (``None``), a room's with its words hidden, a room
    snapshot without their lines; anything else as it is."""
    if isinstance(message, ChatLine) and name_key(message.author) in blocked:
        if message.room_id is None:
            return None
        return message.model_copy(update={"text": HIDDEN_LINE})
    if isinstance(message, RoomSnapshot) and any(
        name_key(entry.author) in blocked for entry in message.chat
    ):
        chat = tuple(entry for entry in message.chat if name_key(entry.author) not in blocked)
        return message.model_copy(update={"chat": chat})
    return message


def _settle(conn: Connection, reply_to: object, followed: str | None) -> None:
    """What ``conn`` is sent answers some of its requests in flight to other nodes."""
    if reply_to is not None:
        conn.answered(reply_to)
    if followed is not None:
        conn.entered(followed)


def _room_followed(message: ServerMessage) -> tuple[str | None, str | None]:
    """The room a recipient of ``message`` follows from now on, or the one it left.

    Whoever gets a room's snapshot or events follows the room (a ``resume`` may answer
    with events only), so its drop must be reported to that room.
    """
    if isinstance(message, RoomSnapshot | RoomEvent):
        return message.room_id, None
    if isinstance(message, ChatLine) and message.room_id is not None:
        return message.room_id, None
    if isinstance(message, RoomLeft):
        return None, message.room_id
    return None, None
