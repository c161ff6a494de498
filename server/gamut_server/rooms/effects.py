"""What a room or the lobby asks the async layer to do: the effects of one message.

A room (or the lobby) never does I/O. Each call returns a list of effects, a *batch*,
that the async layer performs in two phases:

1. every storage effect of the batch (:data:`STORAGE_EFFECTS`: :class:`StartGame`,
   :class:`StoreMove`, :class:`StoreResult`, :class:`StoreAbort`, :class:`StoreChat`),
   every :class:`OpenRoom` and every :class:`SeekKept`, in the order given, so nothing
   is broadcast before it is stored (and a seek's copy is kept or dropped before the
   seek is announced, or its game opened);
2. then every :class:`Send`, :class:`RoomChanged`, :class:`RoomMoved`,
   :class:`RequestAIMove` and :class:`Log`, in the order given.

Recipients are concrete connection ids, resolved by the room when it made the batch,
so the async layer needs no membership bookkeeping of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from gamut_protocol import ClientKind, RoomSummary, SeekInfo, ServerMessage
from gamut_server.records.games import Clock, NewGame, Result
from gamut_server.rooms.spec import RoomSpec

ConnectionId: TypeAlias = int
"""How the async layer names one live connection (a WebSocket)."""

CorrelationId: TypeAlias = str | int
"""A client message's ``id``, echoed as ``reply_to`` in what answers it."""


@dataclass(frozen=True, slots=True)
class Who:
    """Who is asking: one connection, and the player name its ``hello`` proved."""

    conn: ConnectionId
    """The connection the message came on; answers go back to it."""
    name: str
    """The player's name, which is what a seat in a room belongs to."""
    kind: ClientKind = "human"
    """``human`` or ``bot``, as the ``hello`` said."""
    account: int | None = None
    """The account the ``hello`` signed in to; ``None`` for a guest."""
    ratings: tuple[tuple[str, float, float], ...] = ()
    """The account's ratings as ``(category, mu, sigma)``, when a rated seek or an
    acceptance needs them (the hub reads them from the store then)."""

    def skill_in(self, category: str) -> tuple[float, float] | None:
        """``(mu, sigma)`` in ``category``, or ``None`` if unrated there (or not told)."""
        for rated, mu, sigma in self.ratings:
            if rated == category:
                return mu, sigma
        return None


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``message`` to every connection in ``to`` (serialise it once)."""

    to: tuple[ConnectionId, ...]
    """The recipients; a connection that is gone by now is skipped."""
    message: ServerMessage
    """The message."""
    lean: ServerMessage | None = None
    """What recipients speaking protocol version 3 or later get instead, if anything
    (a ``move_made`` without the legal moves, for those not to move)."""


@dataclass(frozen=True, slots=True)
class StartGame:
    """Store a new game, running from now: ``await store.add_game(game, start=True)``."""

    game: NewGame
    """The game; its ``game_id`` is the room id."""


@dataclass(frozen=True, slots=True)
class StoreMove:
    """Store an accepted move: ``await store.record_move(room_id, ply=…, …)``."""

    room_id: str
    """The room (= the stored game's id)."""
    ply: int
    """The ply the move was played at (0 for the first move)."""
    move: str
    """The move in canonical notation."""
    side: int
    """The side that played it."""
    think_ms: int
    """How long the mover thought, as the server measured it."""
    clock: Clock
    """The clocks after the move (``remaining_ms`` is ``None`` when untimed)."""
    seq: int
    """The room sequence number of the ``move_made`` event."""


@dataclass(frozen=True, slots=True)
class StoreResult:
    """Store how the game ended: ``await store.finish_game(room_id, result, clock, seq)``."""

    room_id: str
    """The room."""
    result: Result
    """Winner, reason and winning line."""
    clock: Clock | None
    """The stopped clocks, or ``None`` to keep the stored ones."""
    seq: int
    """The sequence number of the ``game_over`` event."""


@dataclass(frozen=True, slots=True)
class StoreAbort:
    """Store that the game was called off: ``await store.abort_game(room_id, reason, seq)``."""

    room_id: str
    """The room."""
    reason: str
    """Why: ``aborted``."""
    seq: int
    """The sequence number of the ``game_over`` event."""


@dataclass(frozen=True, slots=True)
class StoreChat:
    """Store a room chat line: ``await store.record_chat(room_id, seq=…, author=…, text=…)``."""

    room_id: str
    """The room."""
    seq: int
    """The line's room sequence number."""
    author: str
    """Who wrote it."""
    text: str
    """What they wrote."""


@dataclass(frozen=True, slots=True)
class RequestAIMove:
    """Ask the AI pool for a move; feed the answer to ``Room.ai_move(ply, text, now_ms)``.

    The worker rebuilds the position with ``load_game(game, **options)`` and the
    ``moves`` replayed from the start, then searches at ``level`` within ``budget_ms``.
    """

    room_id: str
    """The room to answer."""
    game: str
    """The game's registry name."""
    options: Mapping[str, object]
    """Its options, for ``load_game``."""
    moves: tuple[str, ...]
    """Every move so far, in canonical notation, from the start position."""
    ply: int
    """The ply of the position to answer (``len(moves)``); echo it to ``ai_move``."""
    side: int
    """The side the AI plays."""
    level: int
    """Strength from 1 (weakest) to 10."""
    budget_ms: int | None
    """The most time the search may take, from the clocks; ``None`` when untimed."""


@dataclass(frozen=True, slots=True)
class OpenRoom:
    """Create a new room: ``Room(room_id, spec, config)``, then run ``room.start(...)``.

    Perform it in the storage phase, running the new room's whole ``start`` batch
    (which stores the game) before this batch's own messages are sent.
    """

    room_id: str
    """The new room's id (already chosen)."""
    spec: RoomSpec
    """The game, its options, time control and seats."""
    members: tuple[Who, ...]
    """The connections to seat in it (the players present), in no particular order."""
    reply_to: tuple[ConnectionId, CorrelationId] | None = None
    """A connection whose request this answers, and the request's ``id``."""


@dataclass(frozen=True, slots=True)
class RoomChanged:
    """A room's lobby summary changed: pass it on with ``lobby.room_changed(summary)``."""

    summary: RoomSummary
    """The room as the lobby lists it now."""


@dataclass(frozen=True, slots=True)
class RoomMoved:
    """Only a room's ply changed (a move): pass it on with ``lobby.room_moved(room_id, ply)``.

    Cheaper than :class:`RoomChanged`: the room does not rebuild its summary per move.
    """

    room_id: str
    """The room."""
    ply: int
    """Moves played so far."""


@dataclass(frozen=True, slots=True)
class Log:
    """Something the server operator should see in the logs; nothing is sent."""

    level: Literal["info", "warning", "error"]
    """How serious it is."""
    message: str
    """What happened."""


@dataclass(frozen=True, slots=True)
class SeekKept:
    """A seek was opened (``info``) or closed (``info`` is ``None``); nothing is sent.

    A server alone does nothing with it. On a node of a cluster, the node of the seek's
    author keeps a copy of each open seek, so that when the node leading the lobby dies
    the next one gets the seek back as its author enters the new lobby.
    """

    author: Who
    """The connection that made the seek (its ``ratings`` and ``account`` as told then)."""
    seek_id: str
    """The seek's id."""
    info: SeekInfo | None = None
    """The seek as clients see it, while it is open; ``None`` once it is closed."""
    request: CorrelationId | None = None
    """The ``id`` of the ``seek`` that opened it, if it had one."""


Effect: TypeAlias = (
    Send
    | StartGame
    | StoreMove
    | StoreResult
    | StoreAbort
    | StoreChat
    | RequestAIMove
    | OpenRoom
    | RoomChanged
    | RoomMoved
    | SeekKept
    | Log
)
"""Anything a room or the lobby may ask for."""

StorageEffect: TypeAlias = StartGame | StoreMove | StoreResult | StoreAbort | StoreChat
"""The effects that write to the store; performed before a batch's messages."""

STORAGE_EFFECTS: Final = (StartGame, StoreMove, StoreResult, StoreAbort, StoreChat)
"""The storage effect classes, for ``isinstance``."""

FIRST_PHASE: Final = (*STORAGE_EFFECTS, OpenRoom, SeekKept)
"""Effects to perform, in order, before any message of the batch is sent."""


def first_phase(batch: Sequence[Effect]) -> list[Effect]:
    """The effects of ``batch`` to perform first: storage writes and new rooms, in order."""
    return [effect for effect in batch if isinstance(effect, FIRST_PHASE)]


def second_phase(batch: Sequence[Effect]) -> list[Effect]:
    """The effects of ``batch`` to perform once the first phase is done, in order."""
    return [effect for effect in batch if not isinstance(effect, FIRST_PHASE)]


def sends(batch: Sequence[Effect]) -> list[Send]:
    """The :class:`Send` effects of ``batch``, in order (handy in tests)."""
    return [effect for effect in batch if isinstance(effect, Send)]
