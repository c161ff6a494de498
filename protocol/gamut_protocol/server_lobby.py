"""Server messages about the connection and the lobby: welcome, lists, seeks, errors, pong."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictInt

from gamut_protocol.client import ClientMessageBase
from gamut_protocol.common import (
    MAX_LIST_LENGTH,
    ChallengesFrom,
    ChatText,
    ClientKind,
    Code,
    CorrelationId,
    Count,
    PlayerName,
    PoolId,
    Rating,
    RoomId,
    SeekId,
    Sentence,
    Title,
    Token,
    TournamentId,
    WireModel,
    clip_sentence,
)
from gamut_protocol.errors import FATAL_ERRORS, ErrorCode
from gamut_protocol.lobby import GameInfo, OnlinePlayer, RoomSummary, SeekInfo
from gamut_protocol.room import ChatEntry

RoomSummaries = Annotated[tuple[RoomSummary, ...], Field(max_length=MAX_LIST_LENGTH)]
"""A list of rooms."""


class ServerMessageBase(WireModel):
    """What every server message has: its ``type`` tag and, on answers, the request's ``id``."""

    type: str
    """The message's kind; each subclass fixes it to one literal."""
    reply_to: CorrelationId | None = None
    """The ``id`` of the client message this answers, on the copy sent to that client."""


class Welcome(ServerMessageBase):
    """The answer to a good ``hello``: the connection is open for play."""

    type: Literal["welcome"] = "welcome"
    protocol: Annotated[StrictInt, Field(ge=1, le=1_000)]
    """The protocol version the server will speak on this connection."""
    server: Title
    """The server software and its version."""
    name: PlayerName
    """The name the player is known by."""
    kind: ClientKind
    """The client's kind, as the ``hello`` gave it."""
    guest: bool = True
    """``false`` when the name belongs to an account the token proved."""
    token: Token | None = None
    """For a guest: a token to send in a later ``hello`` to reclaim this name after a drop."""
    rooms: Annotated[tuple[RoomId, ...], Field(max_length=MAX_LIST_LENGTH)] = ()
    """Rooms where this player has a seat in an unfinished game: send ``resume`` to return."""


class Watching(ServerMessageBase):
    """The answer to a ``hello`` without a ``name`` (version 4 on): the connection may watch
    rooms (``join`` as a spectator, ``resume``, ``leave``) and nothing else until a later
    ``hello`` on it names a player. It gets no lobby."""

    type: Literal["watching"] = "watching"
    protocol: Annotated[StrictInt, Field(ge=1, le=1_000)]
    """The protocol version the server will speak on this connection."""
    server: Title
    """The server software and its version."""


class LobbySnapshot(ServerMessageBase):
    """Everything in the lobby, sent after ``welcome`` unless the ``hello`` said ``lobby: false``.

    ``seek_created``, ``seek_removed``, ``room_updated``, ``room_removed``, ``presence``
    and lobby ``chat_line`` messages keep it current afterwards.
    """

    type: Literal["lobby_snapshot"] = "lobby_snapshot"
    seeks: Annotated[tuple[SeekInfo, ...], Field(max_length=MAX_LIST_LENGTH)] = ()
    """The open seeks, and the challenges to this player."""
    rooms: RoomSummaries = ()
    """The rooms being played."""
    online: Count = 0
    """How many players are connected."""
    present: Annotated[tuple[OnlinePlayer, ...], Field(max_length=MAX_LIST_LENGTH)] | None = None
    """Who is online (protocol version 2 on; left out for older clients): people first,
    then bots, each in the order they arrived. The server may list fewer than ``online``."""
    chat: Annotated[tuple[ChatEntry, ...], Field(max_length=MAX_LIST_LENGTH)] = ()
    """The latest lobby chat lines, oldest first."""


class Presence(ServerMessageBase):
    """Someone arrived, left, or started or ended a game (protocol version 2 on).

    Sent to the lobby's subscribers when a player's first connection is welcomed, when
    their last one closes, and when the rooms where they play change.
    """

    type: Literal["presence"] = "presence"
    player: OnlinePlayer
    """The player as they are now."""
    left: bool = False
    """Whether their last connection closed: take them off the list."""
    online: Count
    """How many players are connected now."""


class GameList(ServerMessageBase):
    """The answer to ``list_games``: every game the server hosts."""

    type: Literal["game_list"] = "game_list"
    games: Annotated[tuple[GameInfo, ...], Field(max_length=MAX_LIST_LENGTH)]
    """The games, with their options and notation."""


class RoomList(ServerMessageBase):
    """The answer to ``list_rooms``."""

    type: Literal["room_list"] = "room_list"
    rooms: RoomSummaries
    """The rooms being played (of the game asked for, if any)."""


class SeekCreated(ServerMessageBase):
    """A new seek: sent to the lobby, or for a challenge to its author and the challenged."""

    type: Literal["seek_created"] = "seek_created"
    seek: SeekInfo
    """The seek."""


class SeekRemoved(ServerMessageBase):
    """A seek is gone: accepted (the game has started), cancelled, or expired."""

    type: Literal["seek_removed"] = "seek_removed"
    seek_id: SeekId
    """The seek's id."""
    reason: Literal["accepted", "cancelled", "expired"]
    """Why it is gone; ``expired`` when its author disconnected or a challenge timed out."""
    room_id: RoomId | None = None
    """For an accepted seek, the room where the game is played."""


class RoomUpdated(ServerMessageBase):
    """A room appeared in the lobby or changed (a move, a spectator, its end)."""

    type: Literal["room_updated"] = "room_updated"
    room: RoomSummary
    """The room as it is now."""


class RoomRemoved(ServerMessageBase):
    """A room left the lobby's list (its game ended a while ago)."""

    type: Literal["room_removed"] = "room_removed"
    room_id: RoomId
    """The room's id."""


class LadderStatus(ServerMessageBase):
    """The answer to ``join_ladder`` and ``leave_ladder``: this player's place in a pool."""

    type: Literal["ladder_status"] = "ladder_status"
    pool: PoolId
    """The ladder pool."""
    member: bool
    """Whether this player is now waiting in the pool to be paired."""
    waiting: Count = 0
    """How many players wait in the pool."""


class TournamentStatus(ServerMessageBase):
    """A player's place in a tournament (version 6): the answer to ``join_tournament``
    and ``leave_tournament``, and the news of a game paired for them (``room_id``; the
    room's snapshot follows) or of the tournament's start and end."""

    type: Literal["tournament_status"] = "tournament_status"
    tournament: TournamentId
    """The tournament."""
    status: Literal["upcoming", "running", "finished"]
    """Where the tournament stands."""
    joined: StrictBool
    """Whether this player is entered (and has not withdrawn)."""
    room_id: RoomId | None = None
    """The game just paired for this player, if that is the news."""
    message: Sentence | None = None
    """What happened, in a sentence for people."""


class RatingChange(WireModel):
    """One player's rating after a rated game, and how much the game moved it."""

    name: PlayerName
    """The player."""
    rating: Rating
    """The rating after the game."""
    uncertainty: Annotated[StrictInt, Field(ge=0, le=10_000)]
    """Its uncertainty (one standard deviation) after the game."""
    change: Rating
    """The rating after the game less the rating before it."""
    provisional: bool | None = None
    """``true`` when the rating after the game is still provisional (protocol 5 on)."""


class LadderResult(ServerMessageBase):
    """Sent to both players after a rated ladder game's ``game_over``: the new ratings."""

    type: Literal["ladder_result"] = "ladder_result"
    pool: PoolId
    """The ladder pool."""
    room_id: RoomId
    """The room where the game was played."""
    players: tuple[RatingChange, RatingChange]
    """Side 0 and side 1."""


class ErrorMessage(ServerMessageBase):
    """A refused message: what went wrong, for programs (``code``) and for people."""

    type: Literal["error"] = "error"
    code: ErrorCode
    """What went wrong: one of :data:`gamut_protocol.errors.ERROR_CODES`."""
    message: Sentence
    """What went wrong, in a sentence for people."""
    request: Code | None = None
    """The ``type`` of the message refused, when it could be read."""
    room_id: RoomId | None = None
    """The room the refused message was about."""
    reason: Code | None = None
    """For ``illegal_move``: the engine's reason code, such as ``occupied`` or ``cluster``."""
    fatal: bool = False
    """Whether the server closes the connection after this error."""

    @classmethod
    def answering(
        cls,
        request: ClientMessageBase,
        code: ErrorCode,
        message: str,
        *,
        reason: str | None = None,
    ) -> ErrorMessage:
        """The error refusing ``request``: its ``id``, ``type`` and room filled in.

        ``message`` is cut to :data:`MAX_TEXT_LENGTH` characters, so an engine's long
        sentence can be passed as it is.
        """
        return cls(
            reply_to=request.id,
            code=code,
            message=clip_sentence(message),
            request=request.type,
            room_id=getattr(request, "room_id", None),
            reason=reason,
            fatal=code in FATAL_ERRORS,
        )


class Blocks(ServerMessageBase):
    """The players this connection's player has blocked, and whom they accept challenges
    from (version 6): sent after ``welcome`` and in answer to ``block``, ``unblock`` and
    ``accept_challenges``."""

    type: Literal["blocks"] = "blocks"
    names: Annotated[tuple[PlayerName, ...], Field(max_length=MAX_LIST_LENGTH)] = ()
    """The players blocked, in the order blocked."""
    challenges_from: ChallengesFrom = "everyone"
    """Whom challenges are accepted from."""


class ChatRemoved(ServerMessageBase):
    """A moderator removed a chat line for everyone (version 6): a room's line by its
    number, a lobby's line by its author and words. Clients take it out of the chat they
    show; a later snapshot or resume no longer has its words."""

    type: Literal["chat_removed"] = "chat_removed"
    room_id: RoomId | None = None
    """The room it was said in; ``null`` (or absent) for the lobby."""
    line_seq: Annotated[StrictInt, Field(ge=1)] | None = None
    """The removed line's sequence number in its room; ``null`` in the lobby."""
    author: PlayerName
    """Who said it."""
    text: ChatText
    """What was said."""


class ReportReceived(ServerMessageBase):
    """The answer to ``report`` (version 6): the moderators have it."""

    type: Literal["report_received"] = "report_received"
    report_id: Annotated[StrictInt, Field(ge=1)]
    """The report's number."""


class Pong(ServerMessageBase):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"
