"""The open seeks of this node's connections, kept for the next leader of the lobby.

The lobby lives on one node, its leader. Each seek it opens or closes is told to the
node of the seek's author (:class:`~gamut_server.rooms.SeekKept`), which keeps a copy
here. When another node takes the lead (the leader died, or Redis lost its lease), each
node enters its connections into the new lobby with their kept seeks, which open again
under the same ids: a seek whose author is still connected survives its leader, and a
seek whose author's node died with it goes, as no node holds it any longer.
"""

from __future__ import annotations

from gamut_server.rooms import ConnectionId, CorrelationId, SeekKept
from gamut_server.rooms.seeks import OpenSeek


class KeptSeeks:
    """The open seeks of this node's connections, by connection."""

    def __init__(self) -> None:
        """No seeks kept."""
        self._by_conn: dict[ConnectionId, dict[str, OpenSeek]] = {}
        self._requests: dict[tuple[ConnectionId, CorrelationId], str] = {}

    def note(self, effect: SeekKept) -> None:
        """Keep the seek ``effect`` opens, or drop the one it closes."""
        conn = effect.author.conn
        if effect.info is not None:
            self._by_conn.setdefault(conn, {})[effect.seek_id] = OpenSeek(
                effect.info, effect.author
            )
            if effect.request is not None:
                self._requests[conn, effect.request] = effect.seek_id
            return
        kept = self._by_conn.get(conn)
        if kept is not None:
            kept.pop(effect.seek_id, None)
            if not kept:
                del self._by_conn[conn]

    def opened_by(self, conn: ConnectionId, request: CorrelationId | None) -> OpenSeek | None:
        """The seek kept for ``conn`` that its ``seek`` with the id ``request`` opened."""
        seek_id = None if request is None else self._requests.get((conn, request))
        return None if seek_id is None else self._by_conn.get(conn, {}).get(seek_id)

    def of(self, conn: ConnectionId) -> tuple[OpenSeek, ...]:
        """The seeks kept for ``conn``, oldest first."""
        return tuple(self._by_conn.get(conn, {}).values())

    def forget(self, conn: ConnectionId) -> None:
        """``conn`` closed: its seeks expire with it."""
        self._by_conn.pop(conn, None)
        for key in [key for key in self._requests if key[0] == conn]:
            del self._requests[key]

    def __len__(self) -> int:
        """How many seeks are kept."""
        return sum(len(kept) for kept in self._by_conn.values())
