"""What Gamut records of a game: players, clock, moves, chat and accounts, as dataclasses.

These know nothing of the wire protocol; the server translates between them and its
messages. Timestamps are timezone-aware UTC ``datetime`` values. Sides are 0 and 1.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal, TypeAlias

JSONValue: TypeAlias = str | int | float | bool | list["JSONValue"] | dict[str, "JSONValue"] | None
"""A value that survives a round trip through a JSON column."""

JSONObject: TypeAlias = Mapping[str, JSONValue]
"""A JSON object, as game options and time controls are stored."""

PlayerKind = Literal["human", "bot", "ai", "guest"]
"""Who sits at a side: a signed-in person, a bot program, the server's own AI or a guest."""

GameStatus = Literal["waiting", "running", "finished", "aborted"]
"""A game's life: waiting for players, running, finished with a result, or aborted."""

UNFINISHED: tuple[GameStatus, ...] = ("waiting", "running")
"""The statuses of games that a restarted server must bring back."""

ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
"""Letters of generated game ids: lower case, without the look-alikes ``l``, ``o``, ``0``, ``1``."""

ID_LENGTH = 8
"""Length of generated game ids (40 bits; a clash is retried)."""


def new_game_id() -> str:
    """A fresh random game id."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


REMOVED_LINE: Final = "(removed by a moderator)"
"""The words a chat line removed by a moderator keeps, in storage and in a resume."""


@dataclass(frozen=True, slots=True)
class Player:
    """One side's player."""

    name: str
    """The name shown to others."""
    kind: PlayerKind
    """Human, bot, the hosted AI or a guest."""
    account_id: int | None = None
    """The account behind the player, if any (see :class:`Account`)."""


@dataclass(frozen=True, slots=True)
class Clock:
    """The clocks at one moment: remaining time per side and whose clock runs."""

    remaining_ms: tuple[int, int] | None
    """Milliseconds left for side 0 and side 1; ``None`` for an untimed game."""
    to_move: int
    """The side whose turn it is."""


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended (mirrors the engine's ``Outcome``)."""

    winner: int | None
    """The winning side, or ``None`` for a draw or an abort."""
    reason: str
    """Stable code for the ending: ``five``, ``network``, ``resign``, ``timeout``, ``aborted``…"""
    line: tuple[str, ...] = ()
    """Cells of the winning line or network, in the game's notation."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """Everything needed to create a game; the store adds the id, status and timestamps."""

    game: str
    """The engine's registry name (``connect5``, ``loa``…)."""
    options: JSONObject
    """The engine options that recreate the game (``{"size": 15}``)."""
    time_control: JSONObject
    """The time control as the server describes it; stored as given."""
    players: tuple[Player | None, Player | None]
    """Side 0 and side 1; ``None`` for a seat nobody has taken yet."""
    clock: Clock
    """The clocks before the first move."""
    rated: bool = False
    """Whether the result counts for ratings."""
    pool: str | None = None
    """The ladder pool the game belongs to, if any."""
    game_id: str | None = None
    """A chosen id; by default the store draws a short random one."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game without its moves, as lists show it."""

    id: str
    """Short unique id (URL-safe)."""
    game: str
    """The engine's registry name."""
    options: JSONObject
    """The engine options."""
    time_control: JSONObject
    """The time control, as stored."""
    players: tuple[Player | None, Player | None]
    """Side 0 and side 1 (``None`` for an empty seat)."""
    rated: bool
    """Whether the result counts for ratings."""
    pool: str | None
    """The ladder pool, if any."""
    status: GameStatus
    """Where the game is in its life."""
    result: Result | None
    """How it ended; ``None`` until it has."""
    clock: Clock
    """The clocks as of :attr:`clock_at` (after the last move, or at start)."""
    clock_at: datetime | None
    """When :attr:`clock` was recorded; downtime after it is not charged to anyone."""
    plies: int
    """How many moves are recorded; the next move's ply."""
    last_seq: int
    """The room sequence number of the last event stored for the game."""
    created_at: datetime
    """When the game was created."""
    started_at: datetime | None
    """When the game started running."""
    finished_at: datetime | None
    """When the game finished or was aborted."""


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One accepted move."""

    ply: int
    """0 for the first move of the game."""
    move: str
    """The move in the game's canonical notation."""
    side: int
    """The side that played it."""
    think_ms: int
    """How long the side thought, in milliseconds."""
    clock: Clock
    """The clocks right after the move (whose turn is next)."""
    seq: int
    """The room sequence number of the move event."""
    at: datetime
    """When the move was accepted."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game in full: its row and every move in ply order."""

    info: GameInfo
    """The game itself."""
    moves: tuple[MoveRecord, ...]
    """Every recorded move, ply 0 first."""


@dataclass(frozen=True, slots=True)
class GamePage:
    """One page of a game listing, newest first."""

    games: tuple[GameInfo, ...]
    """The games on this page."""
    total: int
    """How many games match the filter in all pages."""
    offset: int
    """How many matching games come before this page."""
    limit: int
    """The page size asked for."""


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One chat line in a room."""

    room: str
    """The room (a game id, or a name such as ``lobby``)."""
    seq: int
    """The room sequence number of the line."""
    author: str
    """The name of who wrote it."""
    text: str
    """What was written."""
    at: datetime
    """When it was written."""


@dataclass(frozen=True, slots=True)
class Account:
    """A registered name: a bot's (signing in with a token), a person's (with a password),
    or both."""

    id: int
    """Database id, referenced by :attr:`Player.account_id`."""
    name: str
    """Unique name, whatever its case; spelt as its owner chose."""
    token_hash: str | None
    """Hash of the account's secret token (``None``: it has none); never the token."""
    created_at: datetime
    """When the account was made."""
    revoked: bool
    """Whether the token has been withdrawn."""
    password_hash: str | None = None
    """Hash of the account's password (``None``: it has none); never the password."""
    name_key: str = ""
    """The name folded to lower case, which no other account shares."""
