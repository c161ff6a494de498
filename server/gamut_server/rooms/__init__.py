"""Gamut's rooms and lobby: pure, synchronous state machines the async server drives.

Nothing here does I/O or reads the time: every method takes ``now_ms`` and returns a
list of effects (:mod:`gamut_server.rooms.effects`) for the async layer to perform.
"""

from gamut_server.rooms.catalog import (
    BadOptionsError,
    UnknownGameError,
    check_options,
    game_infos,
    hosted_games,
)
from gamut_server.rooms.clock import GameClock
from gamut_server.rooms.describe import describe
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
    RoomMoved,
    SeekKept,
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
from gamut_server.rooms.limits import CHAT_RATE, MESSAGE_RATE, ConnectionLimits, Rate, TokenBucket
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
    "CHAT_RATE",
    "DEFAULT_AI_LEVEL",
    "FIRST_PHASE",
    "MESSAGE_RATE",
    "STORAGE_EFFECTS",
    "BadOptionsError",
    "ConnectionId",
    "ConnectionLimits",
    "CorrelationId",
    "Effect",
    "GameClock",
    "Lobby",
    "LobbyConfig",
    "LobbyMessage",
    "Log",
    "OpenRoom",
    "Rate",
    "RequestAIMove",
    "Room",
    "RoomChanged",
    "RoomConfig",
    "RoomMessage",
    "RoomMoved",
    "RoomSpec",
    "SeatSpec",
    "SeekKept",
    "Send",
    "StartGame",
    "StorageEffect",
    "StoreAbort",
    "StoreChat",
    "StoreMove",
    "StoreResult",
    "TokenBucket",
    "UnknownGameError",
    "Who",
    "ai_level_from_name",
    "ai_seat",
    "check_options",
    "describe",
    "first_phase",
    "game_infos",
    "hosted_games",
    "second_phase",
    "sends",
]
