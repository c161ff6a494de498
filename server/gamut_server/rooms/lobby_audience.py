"""Who is in the lobby and who hears what.

The lobby's connections, the subscribers to its updates and those among them told who
is online (protocol version 2 on), the players online (the roster), and the audiences
of its messages: a seek's, a chat line's, the ``presence`` messages'.
"""

from __future__ import annotations

from collections.abc import Iterable

from gamut_protocol import Presence, ServerMessage
from gamut_server.rooms.blocks import BlockBook
from gamut_server.rooms.effects import ConnectionId, CorrelationId, Effect, Send, Who
from gamut_server.rooms.roster import Roster
from gamut_server.rooms.seeks import OpenSeek


class LobbyAudience:
    """The lobby's connections, its subscribers and the players online."""

    def __init__(self, blocks: BlockBook) -> None:
        """Nobody in the lobby yet; ``blocks`` says who has blocked whom."""
        self.online: dict[ConnectionId, Who] = {}
        """Every connection in the lobby, with who holds it."""
        self.subscribed: set[ConnectionId] = set()
        """The connections that get the lobby's updates."""
        self.presence: set[ConnectionId] = set()
        """The subscribers also told who is online."""
        self.roster = Roster()
        """The players online, their connections and their unfinished rooms."""
        self._blocks = blocks

    def arrive(self, who: Who) -> bool:
        """A connection entered the lobby; whether it is its player's first."""
        self.online[who.conn] = who
        return self.roster.arrive(who)

    def subscribe(self, conn: ConnectionId, *, presence: bool) -> None:
        """``conn`` gets the lobby's updates, and with ``presence`` who is online."""
        self.subscribed.add(conn)
        if presence:
            self.presence.add(conn)

    def depart(self, who: Who) -> bool:
        """A connection left the lobby; whether it was its player's last."""
        self.online.pop(who.conn, None)
        self.subscribed.discard(who.conn)
        self.presence.discard(who.conn)
        return self.roster.depart(who)

    def connections_of(self, name: str) -> list[ConnectionId]:
        """Every connection of the player ``name``."""
        return self.roster.connections_of(name)

    def readers_of(self, author: str) -> set[ConnectionId]:
        """The subscribers who see a chat line of ``author`` (those who did not block them)."""
        return {conn for conn in self.subscribed if not self._blocks_conn(conn, author)}

    def _blocks_conn(self, conn: ConnectionId, author: str) -> bool:
        """Whether the player of ``conn`` has blocked ``author``."""
        reader = self.online.get(conn)
        return reader is not None and self._blocks.blocks(reader.name, author)

    def of_seek(self, seek: OpenSeek) -> set[ConnectionId]:
        """Who is told about ``seek``: subscribers for an open seek, else the two players."""
        challenged = seek.challenged
        if challenged is None:
            author = seek.author.name
            audience = {
                conn
                for conn in self.subscribed
                if conn not in self.online or not self._blocks.apart(self.online[conn].name, author)
            }
        else:
            audience = set(self.connections_of(challenged))
        audience.add(seek.author.conn)
        return audience

    def announce(self, names: Iterable[str], exclude: ConnectionId | None = None) -> list[Effect]:
        """A ``presence`` message for each of ``names`` online, to the presence subscribers."""
        audience = tuple(sorted(conn for conn in self.presence if conn != exclude))
        if not audience:
            return []
        count = self.roster.count
        return [
            Send(audience, Presence(player=self.roster.entry(name), online=count))
            for name in names
            if self.roster.is_online(name)
        ]

    def announce_departure(self, who: Who) -> list[Effect]:
        """The ``presence`` message saying that ``who``'s last connection closed."""
        if not self.presence:
            return []
        entry = self.roster.entry(who.name, who.kind)
        gone = Presence(player=entry, left=True, online=self.roster.count)
        return [Send(tuple(sorted(self.presence)), gone)]

    def to_subscribers(self, message: ServerMessage) -> list[Effect]:
        """Send ``message`` to every lobby subscriber."""
        if not self.subscribed:
            return []
        return [Send(tuple(sorted(self.subscribed)), message)]


def send_split(
    audience: Iterable[ConnectionId],
    message: ServerMessage,
    asker: ConnectionId,
    reply_to: CorrelationId | None,
) -> list[Effect]:
    """Send ``message`` to ``audience``; the asker's copy carries ``reply_to``."""
    others = tuple(sorted(conn for conn in audience if conn != asker))
    effects: list[Effect] = [Send(others, message)] if others else []
    answer = message.model_copy(update={"reply_to": reply_to})
    effects.append(Send((asker,), answer))
    return effects
