"""What the nodes of a cluster say to each other through Redis: one JSON envelope a message.

Envelopes are pydantic models, one ``kind`` each, read back with :data:`ENVELOPE`. They
come only from other nodes of the same cluster, which are trusted; players' messages
inside them were checked by the node that read them off the socket.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, TypeAlias

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
)

from gamut_protocol import ChatEntry, RoomSummary, SeekInfo
from gamut_server.core.ops import Blocking, LobbyOp, RoomOp
from gamut_server.ladder_live.ops import LadderOp
from gamut_server.rooms import RoomSpec, Who


class _Envelope(BaseModel):
    """Common settings: frozen, unknown fields refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")


LATER_FIELDS: Final = frozenset({"ticket", "seeks", "chat"})
"""Fields added to envelopes after nodes refusing unknown fields were released: left out
while empty, so that a node of the release before still reads the envelope (a cluster
upgraded one node at a time)."""


def _without_empty_later_fields(data: Any) -> Any:
    """``data`` (an envelope as a dict) without the :data:`LATER_FIELDS` that are empty."""
    if isinstance(data, dict):
        return {
            key: _without_empty_later_fields(value)
            for key, value in data.items()
            if not (key in LATER_FIELDS and not value)
        }
    return data


class _Upgradable(_Envelope):
    """An envelope that leaves its later fields out while they are empty."""

    @model_serializer(mode="wrap")
    def _serialise(self, handler: SerializerFunctionWrapHandler) -> Any:
        """The envelope as usual, less its empty later fields."""
        return _without_empty_later_fields(handler(self))


class Deliver(_Envelope):
    """Queue a server message on connections of the receiving node."""

    kind: Literal["deliver"] = "deliver"
    to: tuple[int, ...]
    """The recipients (connection ids of the receiving node)."""
    text: str
    """The message, serialised."""
    lean: str | None = None
    """Its lean form for recipients speaking protocol 3 or later, if it has one."""


class ToLobby(_Upgradable):
    """An operation for the lobby, sent to the node leading it."""

    kind: Literal["lobby"] = "lobby"
    op: Annotated[LobbyOp, Field(discriminator="op")]


class ToRoom(_Upgradable):
    """An operation for a room, sent to the node that owns it."""

    kind: Literal["room"] = "room"
    room_id: str
    op: Annotated[RoomOp, Field(discriminator="op")]
    ticket: int | None = None
    """For a request without an ``id``: the sender's number for it, which the owner
    sends back (:class:`Done`) once it has performed it."""


class Done(_Envelope):
    """To the node that sent a request without an ``id`` to a room: it was performed."""

    kind: Literal["done"] = "done"
    ticket: int


class ToLadder(_Envelope):
    """An operation for the ladder's queues, sent to the node leading the lobby."""

    kind: Literal["ladder"] = "ladder"
    op: Annotated[LadderOp, Field(discriminator="op")]


class OpenRoomRequest(_Envelope):
    """Open a room on the receiving node (its players are connected there)."""

    kind: Literal["open_room"] = "open_room"
    room_id: str
    spec: RoomSpec
    members: tuple[Who, ...]
    reply_to: tuple[int, str | int] | None = None


class ListRoomsRequest(_Envelope):
    """The lobby leader's list of live rooms."""

    kind: Literal["list_rooms"] = "list_rooms"
    game: str | None = None


class ListPoolsRequest(_Envelope):
    """The ladder's pools with their live figures, from the node running the queues."""

    kind: Literal["list_pools"] = "list_pools"


class LobbyChatRequest(_Envelope):
    """The lobby leader's latest chat lines (for a report made on another node)."""

    kind: Literal["lobby_chat"] = "lobby_chat"
    count: int


RequestBody: TypeAlias = Annotated[
    OpenRoomRequest | ListRoomsRequest | ListPoolsRequest | LobbyChatRequest,
    Field(discriminator="kind"),
]
"""What one node may ask another and wait for."""


class Request(_Envelope):
    """A question to one node; its :class:`Reply` goes to ``sender``'s inbox."""

    kind: Literal["request"] = "request"
    request_id: int
    sender: int
    body: RequestBody


class Reply(_Upgradable):
    """The answer to a :class:`Request`."""

    kind: Literal["reply"] = "reply"
    request_id: int
    ok: bool = True
    rooms: tuple[RoomSummary, ...] = ()
    pools: tuple[dict[str, Any], ...] = ()
    chat: tuple[ChatEntry, ...] = ()
    error: str | None = None


class Leader(_Envelope):
    """To everyone: this node leads the lobby from now on (and starts it empty)."""

    kind: Literal["leader"] = "leader"
    node: int


class NodeDown(_Envelope):
    """To everyone: ``node`` is dead, and ``taker`` has taken its rooms over."""

    kind: Literal["node_down"] = "node_down"
    node: int
    taker: int


class RoomMovedTo(_Envelope):
    """To everyone: room ``room_id`` now lives on ``node`` (after a takeover)."""

    kind: Literal["room_moved"] = "room_moved"
    room_id: str
    node: int


class NotHere(_Envelope):
    """To the node that sent an operation for room ``room_id``: the room is not on
    ``node`` (any longer), so the sender stops taking ``node`` for its owner."""

    kind: Literal["not_here"] = "not_here"
    room_id: str
    node: int


class SeekNoted(_Envelope):
    """To the node of a seek's author, from the lobby's leader: keep a copy of the open
    seek (``info``), or drop it (``info`` is ``None``), for the next leader."""

    kind: Literal["seek_noted"] = "seek_noted"
    author: Who
    seek_id: str
    info: SeekInfo | None = None
    request: str | int | None = None


class EndSessions(_Envelope):
    """To everyone: close every connection signed in as ``name`` (its token stopped working)."""

    kind: Literal["end_sessions"] = "end_sessions"
    name: str
    why: str


class BlocksChanged(_Envelope):
    """To everyone: a player connected to ``node`` changed their blocks or challenge
    setting; their connections on other nodes follow."""

    kind: Literal["blocks_changed"] = "blocks_changed"
    node: int
    blocking: Blocking


class LookAtTournaments(_Envelope):
    """To the lobby's leader: a tournament was created, entered or started on another
    node; its director looks at them now."""

    kind: Literal["look_at_tournaments"] = "look_at_tournaments"


Envelope: TypeAlias = Annotated[
    Deliver
    | ToLobby
    | ToRoom
    | Done
    | ToLadder
    | Request
    | Reply
    | Leader
    | NodeDown
    | RoomMovedTo
    | NotHere
    | SeekNoted
    | EndSessions
    | BlocksChanged
    | LookAtTournaments,
    Field(discriminator="kind"),
]
"""Anything one node says to another."""

ENVELOPE: Final[TypeAdapter[Envelope]] = TypeAdapter(Envelope)
"""Reads an envelope back: ``ENVELOPE.validate_json(data)``."""
