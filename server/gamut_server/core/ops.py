"""What the hub asks of the lobby and of a room, as data.

The hub does not call the lobby or a room directly: it hands the driver an operation,
which the driver performs here, or, on a node of a cluster, sends to the node that
holds the lobby or the room (:mod:`gamut_server.cluster`). So every operation is a
small frozen value that can cross to another process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from gamut_protocol import RoomSummary
from gamut_protocol.common import ChallengesFrom
from gamut_server.rooms import Effect, Lobby, LobbyMessage, Room, RoomMessage, Who
from gamut_server.rooms.effects import CorrelationId
from gamut_server.rooms.seeks import OpenSeek


@dataclass(frozen=True, slots=True)
class Enter:
    """A connection was welcomed: it enters the lobby (see :meth:`Lobby.enter`)."""

    who: Who
    """The connection."""
    subscribe: bool
    """Whether it follows the lobby."""
    presence: bool
    """Whether it is told who is online."""
    reply_to: CorrelationId | None = None
    """The ``hello`` its lobby snapshot answers, if any."""
    seeks: tuple[OpenSeek, ...] = ()
    """Its seeks kept from an earlier lobby (a cluster's new leader gets them back)."""
    op: Literal["enter"] = "enter"


@dataclass(frozen=True, slots=True)
class Leave:
    """A connection closed: it leaves the lobby."""

    who: Who
    """The connection."""
    op: Literal["leave"] = "leave"


@dataclass(frozen=True, slots=True)
class Ask:
    """A lobby message from a connection."""

    who: Who
    """Who sent it."""
    message: LobbyMessage
    """What it says."""
    op: Literal["ask"] = "ask"


@dataclass(frozen=True, slots=True)
class Listed:
    """A room appeared or changed: the lobby lists it as ``summary`` says."""

    summary: RoomSummary
    """The room as the lobby lists it."""
    op: Literal["listed"] = "listed"


@dataclass(frozen=True, slots=True)
class Moved:
    """A move was played in a listed room."""

    room_id: str
    """The room."""
    ply: int
    """Moves played so far."""
    op: Literal["moved"] = "moved"


@dataclass(frozen=True, slots=True)
class Unlisted:
    """A room left memory: the lobby forgets it."""

    room_id: str
    """The room."""
    op: Literal["unlisted"] = "unlisted"


@dataclass(frozen=True, slots=True)
class RemoveLobbyLine:
    """A moderator removes a lobby chat line."""

    author: str
    """Who said it."""
    text: str
    """What was said."""
    op: Literal["remove_lobby_line"] = "remove_lobby_line"


@dataclass(frozen=True, slots=True)
class Blocking:
    """A player's blocks and challenge setting, as their node keeps them: the lobby
    refuses challenges and hides seeks and chat lines by them."""

    name: str
    """The player."""
    blocked: tuple[str, ...]
    """The names they have blocked, in the order blocked."""
    challenges_from: ChallengesFrom = "everyone"
    """Whom they accept challenges from."""
    op: Literal["blocking"] = "blocking"


LobbyOp: TypeAlias = Enter | Leave | Ask | Listed | Moved | Unlisted | RemoveLobbyLine | Blocking
"""Anything the lobby is asked."""


def lobby_effects(lobby: Lobby, op: LobbyOp, now_ms: int) -> list[Effect]:
    """Perform ``op`` on ``lobby``: the batch of effects it returns."""
    match op:
        case Enter():
            return lobby.enter(
                op.who,
                now_ms,
                subscribe=op.subscribe,
                presence=op.presence,
                reply_to=op.reply_to,
                seeks=op.seeks,
            )
        case Leave():
            return lobby.leave(op.who, now_ms)
        case Ask():
            return lobby.handle(op.who, op.message, now_ms)
        case Listed():
            return lobby.room_changed(op.summary)
        case Moved():
            return lobby.room_moved(op.room_id, op.ply)
        case Unlisted():
            return lobby.room_removed(op.room_id)
        case RemoveLobbyLine():
            return lobby.remove_chat(op.author, op.text)
        case Blocking():
            lobby.blocks.set_player(op.name, op.blocked, op.challenges_from)
            return []


@dataclass(frozen=True, slots=True)
class Handle:
    """A room message from a connection."""

    who: Who
    """Who sent it."""
    message: RoomMessage
    """What it says."""
    op: Literal["handle"] = "handle"


@dataclass(frozen=True, slots=True)
class Gone:
    """A connection following the room closed."""

    who: Who
    """The connection."""
    op: Literal["gone"] = "gone"


@dataclass(frozen=True, slots=True)
class RemoveLine:
    """A moderator removes a chat line of the room."""

    seq: int
    """The line's sequence number."""
    op: Literal["remove_line"] = "remove_line"


@dataclass(frozen=True, slots=True)
class Stop:
    """A moderator calls the game off."""

    op: Literal["stop"] = "stop"


RoomOp: TypeAlias = Handle | Gone | Stop | RemoveLine
"""Anything a room is asked by a connection, or by a moderator."""

Asker: TypeAlias = tuple[Who, str, CorrelationId | None]
"""Who asked a room something: the connection, the request's type and its ``id``."""


def asker_of(op: RoomOp) -> Asker | None:
    """Who ``op`` answers, if it is a request."""
    if isinstance(op, Handle):
        return op.who, op.message.type, op.message.id
    return None


def room_effects(room: Room, op: RoomOp, now_ms: int) -> list[Effect]:
    """Perform ``op`` on ``room``: the batch of effects it returns."""
    match op:
        case Handle():
            return room.handle(op.who, op.message, now_ms)
        case Gone():
            return room.disconnected(op.who, now_ms)
        case Stop():
            return room.stop(now_ms)
        case RemoveLine():
            return room.remove_chat(op.seq)
