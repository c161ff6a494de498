"""Small answers shared by the hub's parts: an error answering a request, and the rooms'
view of a connection."""

from __future__ import annotations

from gamut_protocol import ClientMessage, ErrorMessage
from gamut_protocol.errors import ErrorCode
from gamut_server.edge.connection import Connection
from gamut_server.rooms import Who


def error(
    conn: Connection,
    code: ErrorCode,
    sentence: str,
    request: ClientMessage,
    *,
    room_id: str | None = None,
) -> None:
    """Send ``conn`` an error answering ``request``."""
    answer = ErrorMessage.answering(request, code, sentence)
    if room_id is not None and answer.room_id is None:
        answer = answer.model_copy(update={"room_id": room_id})
    conn.send(answer)


def who_of(conn: Connection) -> Who:
    """The room's view of a welcomed connection, or of one that only watches (its name
    empty: no seat has it)."""
    if conn.name is None:
        assert conn.watcher
        return Who(conn=conn.id, name="", kind=conn.kind)
    return Who(conn=conn.id, name=conn.name, kind=conn.kind, account=conn.account_id)
