"""Who is online, and the unfinished games each player has a seat in.

The lobby keeps a :class:`Roster` to answer "who is online" (``lobby_snapshot.present``
and ``presence`` messages) and "where does this player play" (``welcome.rooms`` and the
cap on games per player) without scanning every connection or every room.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from gamut_protocol import ClientKind, OnlinePlayer
from gamut_protocol.common import name_key
from gamut_server.rooms.effects import ConnectionId, Who


@dataclass(slots=True)
class _Player:
    """One name online: its connections, oldest first, and the kind of the first."""

    kind: ClientKind
    connections: dict[ConnectionId, None] = field(default_factory=dict)


class Roster:
    """Players online by name, and the players seated in each unfinished room."""

    def __init__(self) -> None:
        """Nobody online, no room."""
        self._players: dict[str, _Player] = {}
        self._rooms: dict[str, tuple[str, str]] = {}
        self._seats: dict[str, dict[str, None]] = {}

    # --- connections -----------------------------------------------------------------

    def arrive(self, who: Who) -> bool:
        """A connection of ``who.name`` was welcomed; whether it is the name's first."""
        player = self._players.get(who.name)
        first = player is None
        if player is None:
            player = self._players[who.name] = _Player(who.kind)
        player.connections[who.conn] = None
        return first

    def depart(self, who: Who) -> bool:
        """A connection closed; whether it was the name's last."""
        player = self._players.get(who.name)
        if player is None or who.conn not in player.connections:
            return False
        del player.connections[who.conn]
        if player.connections:
            return False
        del self._players[who.name]
        return True

    def connections_of(self, name: str) -> list[ConnectionId]:
        """Every connection of the player ``name``, oldest first."""
        player = self._players.get(name)
        return list(player.connections) if player is not None else []

    def is_online(self, name: str) -> bool:
        """Whether ``name`` has a connection."""
        return name in self._players

    def spelling(self, name: str) -> str:
        """How the player online under ``name`` in any case spells it (``name`` itself when
        nobody is)."""
        if name in self._players:
            return name
        key = name_key(name)
        return next((online for online in self._players if name_key(online) == key), name)

    @property
    def count(self) -> int:
        """How many players (names) are online."""
        return len(self._players)

    # --- seats -----------------------------------------------------------------------

    def seat(self, room_id: str, names: tuple[str, str]) -> list[str]:
        """The game in ``room_id`` is unfinished, between ``names``; the names it changed."""
        if self._rooms.get(room_id) == names:
            return []
        changed = self.unseat(room_id)
        self._rooms[room_id] = names
        for name in names:
            self._seats.setdefault(name, {})[room_id] = None
        return _unique([*changed, *names])

    def unseat(self, room_id: str) -> list[str]:
        """The game in ``room_id`` is over (or gone); the names it changed."""
        names = self._rooms.pop(room_id, None)
        if names is None:
            return []
        for name in names:
            rooms = self._seats.get(name, {})
            rooms.pop(room_id, None)
            if not rooms:
                self._seats.pop(name, None)
        return _unique(names)

    def rooms_of(self, name: str) -> tuple[str, ...]:
        """The unfinished rooms where ``name`` has a seat, oldest first."""
        return tuple(self._seats.get(name, ()))

    # --- views -----------------------------------------------------------------------

    def entry(self, name: str, kind: ClientKind = "human") -> OnlinePlayer:
        """``name`` as the lobby lists them (``kind`` when they are not online any more)."""
        player = self._players.get(name)
        return OnlinePlayer(
            name=name,
            kind=player.kind if player is not None else kind,
            playing=self.rooms_of(name),
        )

    def listing(self, limit: int) -> tuple[OnlinePlayer, ...]:
        """At most ``limit`` players online: people first, then bots, in order of arrival."""
        people = [name for name, player in self._players.items() if player.kind == "human"]
        if len(people) < limit:
            people += [name for name, player in self._players.items() if player.kind != "human"]
        return tuple(self.entry(name) for name in people[:limit])


def _unique(names: Iterable[str]) -> list[str]:
    """``names`` without repeats, in order."""
    return list(dict.fromkeys(names))
