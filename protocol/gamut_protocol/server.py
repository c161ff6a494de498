"""Every message the server sends to a client, and their discriminated union.

The messages themselves live in :mod:`gamut_protocol.server_lobby` (connection and lobby)
and :mod:`gamut_protocol.server_room` (one room); this module gathers them.
"""

from __future__ import annotations

from typing import Annotated, Final, get_args

from pydantic import Field, TypeAdapter

from gamut_protocol.server_lobby import (
    Blocks,
    ChatRemoved,
    ErrorMessage,
    GameList,
    LadderResult,
    LadderStatus,
    LobbySnapshot,
    Pong,
    Presence,
    RatingChange,
    ReportReceived,
    RoomList,
    RoomRemoved,
    RoomUpdated,
    SeekCreated,
    SeekRemoved,
    ServerMessageBase,
    TournamentStatus,
    Watching,
    Welcome,
)
from gamut_protocol.server_room import (
    ChatLine,
    DrawDeclined,
    DrawOffered,
    GameOver,
    GameRated,
    MoveMade,
    PlayerConnected,
    PlayerDisconnected,
    RematchDeclined,
    RematchOffered,
    RematchStarted,
    RoomEvent,
    RoomLeft,
    RoomSnapshot,
)

ServerMessage = Annotated[
    Welcome
    | Watching
    | LobbySnapshot
    | GameList
    | RoomList
    | SeekCreated
    | SeekRemoved
    | RoomUpdated
    | RoomRemoved
    | Presence
    | LadderStatus
    | TournamentStatus
    | LadderResult
    | GameRated
    | RoomSnapshot
    | MoveMade
    | GameOver
    | DrawOffered
    | DrawDeclined
    | RematchOffered
    | RematchDeclined
    | RematchStarted
    | PlayerConnected
    | PlayerDisconnected
    | RoomLeft
    | ChatLine
    | ErrorMessage
    | Pong
    | Blocks
    | ReportReceived
    | ChatRemoved,
    Field(discriminator="type"),
]
"""Any message from the server, told apart by its ``type``."""

SequencedEvent = (
    MoveMade
    | GameOver
    | DrawOffered
    | DrawDeclined
    | RematchOffered
    | RematchDeclined
    | RematchStarted
    | PlayerConnected
    | PlayerDisconnected
    | ChatLine
)
"""The messages a room numbers, logs and replays on ``resume`` (room chat lines included)."""

SERVER_ADAPTER: Final[TypeAdapter[ServerMessage]] = TypeAdapter(ServerMessage)
"""Validates and serialises server messages; built once, here."""

SERVER_MESSAGE_TYPES: Final[dict[str, type[ServerMessageBase]]] = {
    cls.model_fields["type"].default: cls for cls in get_args(get_args(ServerMessage)[0])
}
"""Each server message class by its ``type`` tag."""

ROOM_EVENT_TYPES: Final = frozenset(
    tag
    for tag, cls in SERVER_MESSAGE_TYPES.items()
    if issubclass(cls, RoomEvent) or cls is ChatLine
)
"""The ``type`` tags of :data:`SequencedEvent` messages."""

__all__ = [
    "ROOM_EVENT_TYPES",
    "SERVER_ADAPTER",
    "SERVER_MESSAGE_TYPES",
    "Blocks",
    "ChatLine",
    "ChatRemoved",
    "DrawDeclined",
    "DrawOffered",
    "ErrorMessage",
    "GameList",
    "GameOver",
    "GameRated",
    "LadderResult",
    "LadderStatus",
    "LobbySnapshot",
    "MoveMade",
    "PlayerConnected",
    "PlayerDisconnected",
    "Pong",
    "Presence",
    "RatingChange",
    "RematchDeclined",
    "RematchOffered",
    "RematchStarted",
    "ReportReceived",
    "RoomEvent",
    "RoomLeft",
    "RoomList",
    "RoomRemoved",
    "RoomSnapshot",
    "RoomUpdated",
    "SeekCreated",
    "SeekRemoved",
    "SequencedEvent",
    "ServerMessage",
    "ServerMessageBase",
    "TournamentStatus",
    "Watching",
    "Welcome",
]
