"""Gamut's rooms and lobby: pure, synchronous state machines the async server drives.

Nothing here does I/O or reads the time: every method takes ``now_ms`` and returns a
list of effects (:mod:`gamut_server.rooms.effects`) for the async layer to perform.
"""

from gamut_server.rooms.effects import (
    FIRST_PHASE,
    STORAGE_EFFECTS,
    ConnectionId,
    CorrelationId,
    Effect,
    Log,
    OpenRoom,
    RequestAIMove,
    RoomChanged,
    Send,
    StartGame,
    StorageEffect,
    StoreAbort,
    StoreChat,
    StoreMove,
    StoreResult,
    Who,
    first_phase,
    second_phase,
    sends,
)
from gamut_server.rooms.lobby import Lobby, LobbyMessage
from gamut_server.rooms.room import Room, RoomMessage
from gamut_server.rooms.spec import (
    DEFAULT_AI_LEVEL,
    LobbyConfig,
    RoomConfig,
    RoomSpec,
    SeatSpec,
    ai_level_from_name,
    ai_seat,
)

__all__ = [
    "DEFAULT_AI_LEVEL",
    "FIRST_PHASE",
    "STORAGE_EFFECTS",
    "ConnectionId",
    "CorrelationId",
    "Effect",
    "Lobby",
    "LobbyConfig",
    "LobbyMessage",
    "Log",
    "OpenRoom",
    "RequestAIMove",
    "Room",
    "RoomChanged",
    "RoomConfig",
    "RoomMessage",
    "RoomSpec",
    "SeatSpec",
    "Send",
    "StartGame",
    "StorageEffect",
    "StoreAbort",
    "StoreChat",
    "StoreMove",
    "StoreResult",
    "Who",
    "ai_level_from_name",
    "ai_seat",
    "first_phase",
    "second_phase",
    "sends",
]
