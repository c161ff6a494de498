"""Every message a client sends to the server, and their discriminated union.

Each message is a JSON object whose ``type`` names it. Any message may carry an ``id``
of the client's choosing (a string or a non-negative integer); the server copies it
into the ``reply_to`` of whatever answers that message, errors included.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias, get_args

from pydantic import Field, StrictInt, TypeAdapter

from gamut_protocol.common import (
    UNNAMED_PROTOCOL_VERSION,
    ChallengesFrom,
    ChatText,
    ClientKind,
    CorrelationId,
    GameName,
    MoveText,
    PlayerName,
    Ply,
    PoolId,
    Role,
    RoomId,
    SeekId,
    Seq,
    Title,
    Token,
    TournamentId,
    WireModel,
)
from gamut_protocol.lobby import SeekTerms


class ClientMessageBase(WireModel):
    """What every client message has: its ``type`` tag and an optional correlation ``id``."""

    type: str
    """The message's kind; each subclass fixes it to one literal."""
    id: CorrelationId | None = None
    """Chosen by the client; the server echoes it in the ``reply_to`` of its answer."""


class RoomRequest(ClientMessageBase):
    """A client message about one room."""

    room_id: RoomId
    """The room it is about."""


class Hello(ClientMessageBase):
    """The first message on a connection: who is connecting, and which protocol they speak."""

    type: Literal["hello"] = "hello"
    protocol: Annotated[StrictInt, Field(ge=1, le=1_000)] = UNNAMED_PROTOCOL_VERSION
    """The protocol version the client speaks; 1 when left out."""
    name: PlayerName | None = None
    """The name to play under; ``null`` or left out (version 4 on): the connection only
    watches rooms (``join`` as a spectator, ``resume``, ``leave``) until a later
    ``hello`` on it names a player."""
    kind: ClientKind = "human"
    """``human`` for a client a person drives, ``bot`` for a program that plays by itself."""
    token: Token | None = None
    """An account's token, or the token a ``welcome`` gave a guest, to reclaim the name."""
    client: Title | None = None
    """The client software and its version, for the server's logs (``gamut-tui 0.1``)."""
    lobby: bool = True
    """Whether to receive the lobby snapshot and its updates; a bot may say ``false``."""


class ListGames(ClientMessageBase):
    """Ask for the games the server hosts; answered by ``game_list``."""

    type: Literal["list_games"] = "list_games"


class ListRooms(ClientMessageBase):
    """Ask for the rooms being played; answered by ``room_list``."""

    type: Literal["list_rooms"] = "list_rooms"
    game: GameName | None = None
    """Only rooms playing this game; ``null`` for all."""


class Seek(SeekTerms, ClientMessageBase):
    """Ask for a game: an open seek, a challenge to a named player, or a game against the AI.

    An open seek or a challenge is answered by ``seek_created``; a game against the AI
    starts at once with a ``room_snapshot``.
    """

    type: Literal["seek"] = "seek"


class CancelSeek(ClientMessageBase):
    """Withdraw one's own open seek; answered by ``seek_removed``."""

    type: Literal["cancel_seek"] = "cancel_seek"
    seek_id: SeekId
    """The seek to withdraw."""


class AcceptSeek(ClientMessageBase):
    """Accept another player's seek; the game starts with a ``room_snapshot`` to both."""

    type: Literal["accept_seek"] = "accept_seek"
    seek_id: SeekId
    """The seek to accept."""


class Join(RoomRequest):
    """Enter a room: as a player (one's own seat) or as a spectator; answered by a snapshot."""

    type: Literal["join"] = "join"
    role: Role = "spectator"
    """``player`` to take one's seat (from another connection, say), ``spectator`` to watch."""


class Leave(RoomRequest):
    """Stop following a room; answered by ``room_left``. A player's game goes on."""

    type: Literal["leave"] = "leave"


class Resume(RoomRequest):
    """Come back to a room after a dropped connection, missing nothing.

    The server replays every room event after ``after_seq`` in order, or sends a fresh
    ``room_snapshot`` when it no longer has them; a player takes their seat back.
    """

    type: Literal["resume"] = "resume"
    after_seq: Seq
    """The last sequence number the client saw in this room."""


class Move(RoomRequest):
    """Play a move; answered by ``move_made`` to everyone in the room."""

    type: Literal["move"] = "move"
    move: MoveText
    """The move, in any notation the game accepts."""
    ply: Ply
    """The ply of the position the move answers; a stale one is refused (``stale_ply``)."""


class Resign(RoomRequest):
    """Give up the game; the opponent wins."""

    type: Literal["resign"] = "resign"


class OfferDraw(RoomRequest):
    """Offer a draw; the offer lapses when the offerer's opponent moves or declines."""

    type: Literal["offer_draw"] = "offer_draw"


class AcceptDraw(RoomRequest):
    """Accept the opponent's draw offer; the game ends drawn by agreement."""

    type: Literal["accept_draw"] = "accept_draw"


class DeclineDraw(RoomRequest):
    """Decline the opponent's draw offer."""

    type: Literal["decline_draw"] = "decline_draw"


class Abort(RoomRequest):
    """Call the game off before both sides have moved; nobody wins."""

    type: Literal["abort"] = "abort"


class Rematch(RoomRequest):
    """After the game, offer a rematch, or accept the opponent's offer."""

    type: Literal["rematch"] = "rematch"


class DeclineRematch(RoomRequest):
    """Decline the opponent's rematch offer."""

    type: Literal["decline_rematch"] = "decline_rematch"


class Chat(ClientMessageBase):
    """Say something in a room one has joined, or in the lobby."""

    type: Literal["chat"] = "chat"
    room_id: RoomId | None = None
    """The room to speak in; ``null`` (or absent) for the lobby."""
    text: ChatText
    """The line."""


class Ping(ClientMessageBase):
    """Check that the server is there; answered by ``pong``. Allowed before ``hello``."""

    type: Literal["ping"] = "ping"


class JoinLadder(ClientMessageBase):
    """Enter a ladder pool: the server pairs its members for rated games."""

    type: Literal["join_ladder"] = "join_ladder"
    pool: PoolId
    """The pool to enter."""


class LeaveLadder(ClientMessageBase):
    """Leave a ladder pool; games already started go on."""

    type: Literal["leave_ladder"] = "leave_ladder"
    pool: PoolId
    """The pool to leave."""


class JoinTournament(ClientMessageBase):
    """Enter a tournament (version 6), or come back to one after withdrawing; answered
    by ``tournament_status``."""

    type: Literal["join_tournament"] = "join_tournament"
    tournament: TournamentId
    """The tournament to enter."""


class LeaveTournament(ClientMessageBase):
    """Withdraw from a tournament (version 6); a game being played goes on."""

    type: Literal["leave_tournament"] = "leave_tournament"
    tournament: TournamentId
    """The tournament to leave."""


class Block(ClientMessageBase):
    """Block a player (version 6): their challenges to you are refused, their chat lines
    are not delivered to you, and you are not paired with them. Kept with an account; for
    a guest, until their last connection closes. Answered by ``blocks``."""

    type: Literal["block"] = "block"
    name: PlayerName
    """The player to block."""


class Unblock(ClientMessageBase):
    """Lift a block (version 6). Answered by ``blocks``."""

    type: Literal["unblock"] = "unblock"
    name: PlayerName
    """The player to unblock."""


class AcceptChallenges(ClientMessageBase):
    """Say whom you accept challenges from (version 6), until your last connection closes.
    Answered by ``blocks``."""

    type: Literal["accept_challenges"] = "accept_challenges"
    challenges_from: ChallengesFrom
    """``everyone`` (as at first), ``accounts`` or ``nobody``."""


class Report(ClientMessageBase):
    """Report a player to the moderators (version 6). The server keeps the context
    itself: the room named (its players and latest chat lines), else the lobby's latest
    chat lines. Answered by ``report_received``."""

    type: Literal["report"] = "report"
    name: PlayerName
    """The player reported."""
    reason: ChatText
    """What they did, in the reporter's words: one line."""
    room_id: RoomId | None = None
    """The room it happened in, if in one."""


AnyRoomRequest: TypeAlias = (
    Join
    | Leave
    | Resume
    | Move
    | Resign
    | OfferDraw
    | AcceptDraw
    | DeclineDraw
    | Abort
    | Rematch
    | DeclineRematch
)
"""Any message about one room (every :class:`RoomRequest`); a room also hears a ``chat``
that names it."""

ClientMessage = Annotated[
    Hello
    | ListGames
    | ListRooms
    | Seek
    | CancelSeek
    | AcceptSeek
    | AnyRoomRequest
    | Chat
    | Ping
    | JoinLadder
    | LeaveLadder
    | JoinTournament
    | LeaveTournament
    | Block
    | Unblock
    | AcceptChallenges
    | Report,
    Field(discriminator="type"),
]
"""Any message from a client, told apart by its ``type``."""

CLIENT_ADAPTER: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)
"""Validates and serialises client messages; built once, here."""

CLIENT_MESSAGE_TYPES: Final[dict[str, type[ClientMessageBase]]] = {
    cls.model_fields["type"].default: cls for cls in get_args(get_args(ClientMessage)[0])
}
"""Each client message class by its ``type`` tag."""
