"""Who has blocked whom, and whom each player accepts challenges from: pure.

Names are compared whatever their case. A block works both ways for pairing (neither
sees the other's open seeks) and one way for the rest: the blocker gets no challenge and
no chat line from the blocked player.
"""

from __future__ import annotations

from collections.abc import Iterable

from gamut_protocol.common import ChallengesFrom, name_key
from gamut_server.rooms.effects import Who


class BlockBook:
    """Every online player's blocks and challenge setting."""

    def __init__(self) -> None:
        """Nobody has blocked anyone."""
        self._blocked: dict[str, dict[str, str]] = {}
        self._from: dict[str, ChallengesFrom] = {}

    def set_blocks(self, name: str, blocked: Iterable[str]) -> None:
        """Replace ``name``'s blocks (as loaded for an account)."""
        names = {name_key(other): other for other in blocked}
        if names:
            self._blocked[name_key(name)] = names
        else:
            self._blocked.pop(name_key(name), None)

    def set_player(self, name: str, blocked: Iterable[str], source: ChallengesFrom) -> None:
        """Replace ``name``'s blocks and whom they accept challenges from."""
        self.set_blocks(name, blocked)
        self.set_challenges_from(name, source)

    def block(self, name: str, other: str) -> None:
        """``name`` blocks ``other``."""
        self._blocked.setdefault(name_key(name), {})[name_key(other)] = other

    def unblock(self, name: str, other: str) -> None:
        """``name`` unblocks ``other``."""
        blocked = self._blocked.get(name_key(name))
        if blocked is not None:
            blocked.pop(name_key(other), None)
            if not blocked:
                del self._blocked[name_key(name)]

    def blocked_by(self, name: str) -> tuple[str, ...]:
        """The names ``name`` has blocked, in the order blocked."""
        return tuple(self._blocked.get(name_key(name), {}).values())

    def keys_blocked_by(self, name: str) -> frozenset[str]:
        """The folded names ``name`` has blocked."""
        return frozenset(self._blocked.get(name_key(name), {}))

    def blocks(self, name: str, other: str) -> bool:
        """Whether ``name`` has blocked ``other``."""
        return name_key(other) in self._blocked.get(name_key(name), {})

    def apart(self, one: str, other: str) -> bool:
        """Whether either has blocked the other: they are never paired."""
        return self.blocks(one, other) or self.blocks(other, one)

    @classmethod
    def of(cls, blocks: Iterable[tuple[str, str]]) -> BlockBook:
        """A book of ``(blocker, blocked)`` pairs (as the store gives them)."""
        book = cls()
        for name, other in blocks:
            book.block(name, other)
        return book

    def set_challenges_from(self, name: str, source: ChallengesFrom) -> None:
        """Whom ``name`` accepts challenges from."""
        if source == "everyone":
            self._from.pop(name_key(name), None)
        else:
            self._from[name_key(name)] = source

    def challenges_from(self, name: str) -> ChallengesFrom:
        """Whom ``name`` accepts challenges from."""
        return self._from.get(name_key(name), "everyone")

    def forget(self, name: str) -> None:
        """``name``'s last connection closed: forget what was kept for the session."""
        self._blocked.pop(name_key(name), None)
        self._from.pop(name_key(name), None)

    def challenge_refusal(self, challenger: Who, name: str) -> str | None:
        """Why ``name`` does not accept a challenge from ``challenger``, if they do not."""
        if self.blocks(name, challenger.name):
            return f"{name} does not accept challenges from you"
        if self.blocks(challenger.name, name):
            return f"you have blocked {name}: unblock them first"
        source = self.challenges_from(name)
        if source == "nobody":
            return f"{name} accepts no challenges at the moment"
        if source == "accounts" and challenger.account is None:
            return f"{name} accepts challenges only from players signed in to an account"
        return None
