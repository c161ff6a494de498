"""Who is in a room: each connection, the side it plays (or none, for a spectator), and
when each seat lost its last connection."""

from __future__ import annotations

from dataclasses import dataclass

from gamut_server.rooms.effects import ConnectionId, Who


@dataclass(frozen=True, slots=True)
class Member:
    """One connection following a room."""

    who: Who
    """The connection and its player's name."""
    side: int | None
    """The side it plays, or ``None`` for a spectator."""


class Members:
    """The connections in a room, and how long each seat has been without one.

    A seat may have several connections (the same player on two devices); it is
    *away* from the moment its last one goes until one comes back.
    """

    def __init__(self) -> None:
        """Nobody yet."""
        self._members: dict[ConnectionId, Member] = {}
        self.away_since: dict[int, int] = {}
        """For each away seat, the ``now_ms`` since which its absence counts."""
        self.changes = 0
        """How many times a connection came or went: a cheap test for a changed list."""

    def get(self, conn: ConnectionId) -> Member | None:
        """The member on ``conn``, if it follows the room."""
        return self._members.get(conn)

    def add(self, who: Who, side: int | None) -> None:
        """``who`` follows the room, playing ``side`` (``None``: watching)."""
        self._members[who.conn] = Member(who, side)
        self.changes += 1
        if side is not None:
            self.away_since.pop(side, None)

    def remove(self, conn: ConnectionId) -> Member | None:
        """``conn`` no longer follows the room; returns who it was."""
        self.changes += 1
        return self._members.pop(conn, None)

    def everyone(self) -> tuple[ConnectionId, ...]:
        """Every connection following the room."""
        return tuple(self._members)

    def others(self, conn: ConnectionId) -> tuple[ConnectionId, ...]:
        """Every connection following the room but ``conn``."""
        return tuple(other for other in self._members if other != conn)

    def whos(self) -> tuple[Who, ...]:
        """Every connection following the room, with its player's name."""
        return tuple(member.who for member in self._members.values())

    def of_side(self, side: int) -> tuple[Who, ...]:
        """The connections playing ``side``."""
        return tuple(member.who for member in self._members.values() if member.side == side)

    def seated(self, side: int) -> bool:
        """Whether some connection plays ``side``."""
        return any(member.side == side for member in self._members.values())

    def spectators(self) -> int:
        """How many connections watch without playing."""
        return sum(1 for member in self._members.values() if member.side is None)

    def mark_away(self, side: int, now_ms: int) -> None:
        """``side`` has no connection from ``now_ms`` on."""
        self.away_since.setdefault(side, now_ms)

    def restart_absence(self, side: int, now_ms: int) -> None:
        """Count ``side``'s absence from ``now_ms`` (its opponent has just come back)."""
        if side in self.away_since:
            self.away_since[side] = max(self.away_since[side], now_ms)
