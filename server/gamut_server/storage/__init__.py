"""Gamut's storage: games, moves, chat and accounts in SQLite (default) or PostgreSQL.

Open a :class:`Store` with a URL (``None`` for ``gamut.sqlite3`` in the working folder)::

    async with await Store.open("postgresql://gamut@db/gamut") as store:
        info = await store.create_game(NewGame(...))
        await store.record_move(info.id, ply=0, move="h8", side=0, think_ms=900,
                                clock=Clock((299_100, 300_000), to_move=1), seq=1)

Everything stored or returned is a frozen dataclass from :mod:`gamut_server.records`
(re-exported here); the storage layer knows nothing of the wire protocol.
"""

from gamut_server.records.games import (
    UNFINISHED,
    Account,
    ChatLine,
    Clock,
    GameInfo,
    GamePage,
    GameRecord,
    GameStatus,
    JSONObject,
    JSONValue,
    MoveRecord,
    NewGame,
    Player,
    PlayerKind,
    Result,
    new_game_id,
)
from gamut_server.records.ladder import (
    HistoryRow,
    Membership,
    QueueEvent,
    QueueRecord,
    RatingRow,
    RatingUpdate,
)
from gamut_server.records.people import (
    Leader,
    PlayerRating,
    RatedGameSides,
    RatingStep,
    SkillPair,
    Tally,
)
from gamut_server.storage.errors import (
    DuplicateAccountError,
    DuplicateChatError,
    DuplicateGameError,
    DuplicateMoveError,
    FencedError,
    GameNotFoundError,
    GameStateError,
    MoveOrderError,
    SchemaError,
    StorageError,
    StorageUnavailableError,
    StoreClosedError,
)
from gamut_server.storage.export import format_game, result_token
from gamut_server.storage.ladder_store import AlreadyRatedError, queue_record
from gamut_server.storage.people_store import GameAlreadyRatedError
from gamut_server.storage.store import Store
from gamut_server.storage.urls import DEFAULT_URL, database_url
from gamut_server.storage.writes import Ending

__all__ = [
    "DEFAULT_URL",
    "UNFINISHED",
    "Account",
    "AlreadyRatedError",
    "ChatLine",
    "Clock",
    "DuplicateAccountError",
    "DuplicateChatError",
    "DuplicateGameError",
    "DuplicateMoveError",
    "Ending",
    "FencedError",
    "GameAlreadyRatedError",
    "GameInfo",
    "GameNotFoundError",
    "GamePage",
    "GameRecord",
    "GameStateError",
    "GameStatus",
    "HistoryRow",
    "JSONObject",
    "JSONValue",
    "Leader",
    "Membership",
    "MoveOrderError",
    "MoveRecord",
    "NewGame",
    "Player",
    "PlayerKind",
    "PlayerRating",
    "QueueEvent",
    "QueueRecord",
    "RatedGameSides",
    "RatingRow",
    "RatingStep",
    "RatingUpdate",
    "Result",
    "SchemaError",
    "SkillPair",
    "StorageError",
    "StorageUnavailableError",
    "Store",
    "StoreClosedError",
    "Tally",
    "database_url",
    "format_game",
    "new_game_id",
    "queue_record",
    "result_token",
]
