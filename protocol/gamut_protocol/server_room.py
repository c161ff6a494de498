"""Server messages about one room: its snapshot and the events that change it.

Every room event carries the room's next sequence number (1, 2, 3…). A client keeps
the last one it applied: it applies an event whose ``seq`` is one more, ignores one it
has already seen, and sends ``resume`` when it finds a gap. A ``room_snapshot``
replaces everything and carries the sequence number of the last event it includes.
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import Field, StrictInt, StrictStr, model_validator

from gamut_protocol.common import (
    IDENTIFIER_PATTERN,
    MAX_ID_LENGTH,
    MAX_LEGAL_MOVES,
    MAX_LIST_LENGTH,
    MAX_PLY,
    MAX_SEQ,
    CellName,
    ChatText,
    Count,
    Millis,
    MoveText,
    PlayerName,
    Ply,
    RoomId,
    Seq,
    Side,
    Title,
)
from gamut_protocol.descriptor import GameDescriptor, Position
from gamut_protocol.room import ChatEntry, GameResult, MoveRecord, RoomStatus, Seat
from gamut_protocol.server_lobby import RatingChange, ServerMessageBase
from gamut_protocol.timecontrol import Clocks, TimeControl, Untimed

CategoryId = Annotated[
    StrictStr, Field(min_length=1, max_length=MAX_ID_LENGTH, pattern=IDENTIFIER_PATTERN)
]
"""A rating category's id: the game, its options and the speed (``connect5-15.blitz``)."""

EventSeq = Annotated[StrictInt, Field(ge=1, le=MAX_SEQ)]
"""The sequence number of a room event: 1 for a room's first event."""

LegalMoves = Annotated[tuple[MoveText, ...], Field(max_length=MAX_LEGAL_MOVES)]
"""Every legal move of the side to move, in canonical notation; empty once the game is over."""


class RoomEvent(ServerMessageBase):
    """Something that happened in a room, numbered so a reconnecting client misses nothing."""

    room_id: RoomId
    """The room it happened in."""
    seq: EventSeq
    """The room's sequence number for this event."""


RatingChanges = tuple[RatingChange, RatingChange]
"""Side 0's and side 1's rating changes."""


class RoomSnapshot(ServerMessageBase):
    """A room as it is now: the answer to ``join``, to an AI ``seek``, to ``accept_seek``
    (sent to both players) and to a ``resume`` the server cannot replay."""

    type: Literal["room_snapshot"] = "room_snapshot"
    room_id: RoomId
    """The room's id."""
    seq: Seq
    """The sequence number of the last event this snapshot includes (0 for a new room)."""
    status: RoomStatus = "running"
    """Whether the game is still being played."""
    game: GameDescriptor
    """The game, with everything needed to draw it."""
    time_control: TimeControl = Field(default_factory=Untimed)
    """How long players may think."""
    rated: bool = False
    """Whether the result counts for ratings."""
    players: tuple[Seat, Seat]
    """Who plays side 0 and side 1."""
    your_side: Side | None = None
    """The side the receiving client plays; ``null`` for a spectator."""
    spectators: Count = 0
    """How many are watching."""
    position: Position
    """The current position."""
    legal_moves: LegalMoves = ()
    """Every legal move of the side to move."""
    moves: Annotated[tuple[MoveRecord, ...], Field(max_length=MAX_PLY)] = ()
    """Every move played, from the start."""
    clocks: Clocks | None = None
    """Both clocks; ``null`` when the game is untimed."""
    result: GameResult | None = None
    """How the game ended; ``null`` while it runs."""
    draw_offer: Side | None = None
    """The side offering a draw, if an offer is pending."""
    rematch_offer: Side | None = None
    """The side offering a rematch, if an offer is pending."""
    chat: Annotated[tuple[ChatEntry, ...], Field(max_length=MAX_LIST_LENGTH)] = ()
    """The room's latest chat lines, oldest first."""
    ratings: RatingChanges | None = None
    """In a rated game between people that has been rated: both players' new ratings, as
    ``game_rated`` gave them (protocol 5 on)."""

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        """The board fits the geometry, the move list the ply, and the result the status."""
        cells = len(self.game.cells)
        if len(self.position.board) != cells:
            raise ValueError(f"the board lists {len(self.position.board)} cells, not {cells}")
        if self.position.ply != len(self.moves):
            raise ValueError(f"position.ply is {self.position.ply} but {len(self.moves)} moves")
        if (self.result is None) != (self.status == "running"):
            raise ValueError("a result is given exactly when the game is no longer running")
        if self.result is not None and self.legal_moves:
            raise ValueError("a finished game has no legal moves")
        return self


class MoveMade(RoomEvent):
    """A move was played. If it ended the game, a ``game_over`` follows."""

    type: Literal["move_made"] = "move_made"
    ply: Ply
    """The ply of the position the move was played in (0 for the first move)."""
    side: Side
    """The side that moved."""
    move: MoveText
    """The move in canonical notation."""
    cells: Annotated[tuple[CellName, ...], Field(max_length=8)] = ()
    """The cells the move touches in order: ``[to]`` to place, ``[from, to]`` to move."""
    think_ms: Millis | None = None
    """How long the mover thought, when the game is timed."""
    clocks: Clocks | None = None
    """Both clocks after the move; ``null`` when the game is untimed."""
    position: Position
    """The position after the move."""
    legal_moves: LegalMoves = ()
    """Every legal move of the side now to move. From protocol version 3 on, only that
    side's player gets them (the mover and spectators get an empty list)."""

    @model_validator(mode="after")
    def _next_ply(self) -> Self:
        """The new position is one ply after the move's."""
        if self.position.ply != self.ply + 1:
            raise ValueError(f"a move at ply {self.ply} leads to ply {self.ply + 1}")
        return self


class GameOver(RoomEvent):
    """The game ended: by the rules, by resignation, on time, by agreement or by abort."""

    type: Literal["game_over"] = "game_over"
    result: GameResult
    """Who won, why, and the winning network or line."""
    clocks: Clocks | None = None
    """Both clocks, stopped; ``null`` when the game is untimed."""


class GameRated(ServerMessageBase):
    """A rated game between people was rated: both players' new ratings (protocol 5 on).

    It follows the room's ``game_over`` to everyone following the room, players and
    spectators; it is no move of the game, so it has no ``seq``. A room's snapshot
    carries it as ``ratings`` once it is sent, and a ``resume`` of the room ends with it
    again.
    """

    type: Literal["game_rated"] = "game_rated"
    room_id: RoomId
    """The room where the game was played."""
    category: CategoryId
    """The rating category, such as ``connect5-15.blitz``."""
    category_title: Title
    """The category for people: ``Connect Five 15×15, blitz``."""
    players: RatingChanges
    """Side 0 and side 1."""


class DrawOffered(RoomEvent):
    """A player offers a draw; the opponent answers with ``accept_draw`` or ``decline_draw``."""

    type: Literal["draw_offered"] = "draw_offered"
    side: Side
    """The side offering."""


class DrawDeclined(RoomEvent):
    """The pending draw offer was declined."""

    type: Literal["draw_declined"] = "draw_declined"
    side: Side
    """The side that declined."""


class RematchOffered(RoomEvent):
    """After the game, a player offers a rematch; the opponent sends ``rematch`` to accept."""

    type: Literal["rematch_offered"] = "rematch_offered"
    side: Side
    """The side offering."""


class RematchDeclined(RoomEvent):
    """The pending rematch offer was declined (or its offerer left)."""

    type: Literal["rematch_declined"] = "rematch_declined"
    side: Side
    """The side that declined."""


class RematchStarted(RoomEvent):
    """Both want a rematch: it is played in a new room, whose snapshot both players get next."""

    type: Literal["rematch_started"] = "rematch_started"
    new_room_id: RoomId
    """The new room."""


class PlayerConnected(RoomEvent):
    """A player came back (or joined from another connection)."""

    type: Literal["player_connected"] = "player_connected"
    side: Side
    """The side whose player is connected again."""


class PlayerDisconnected(RoomEvent):
    """A player's connection dropped; their clock keeps running."""

    type: Literal["player_disconnected"] = "player_disconnected"
    side: Side
    """The side whose player is gone."""
    grace_ms: Millis | None = None
    """How long they have to come back before losing (``abandoned``); ``null``: no limit."""


class RoomLeft(ServerMessageBase):
    """This connection no longer follows the room: the answer to ``leave``."""

    type: Literal["room_left"] = "room_left"
    room_id: RoomId
    """The room."""


class ChatLine(ServerMessageBase):
    """A chat line, in a room (numbered like every room event) or in the lobby."""

    type: Literal["chat_line"] = "chat_line"
    room_id: RoomId | None = None
    """The room it was said in; ``null`` (or absent) for the lobby."""
    seq: EventSeq | None = None
    """The room's sequence number for it; ``null`` in the lobby."""
    author: PlayerName
    """Who said it."""
    text: ChatText
    """What they said."""

    @model_validator(mode="after")
    def _seq_with_room(self) -> Self:
        """Room lines are numbered; lobby lines are not."""
        if (self.room_id is None) != (self.seq is None):
            raise ValueError("a room chat line has a seq, a lobby chat line has none")
        return self
