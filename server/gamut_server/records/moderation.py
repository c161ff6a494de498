"""What the store keeps for moderation: sanctions, reports, the audit log and blocks.

Plain records, shared by the pure moderation rules, storage and the server.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, TypeAlias

SanctionKind: TypeAlias = Literal["ban", "mute", "address", "name"]
"""A ban of a player's name (an account, or a guest's name), a mute of a player's name,
a ban of an address or network range, or a name kept from guests (a guest taken off it)."""


@dataclass(frozen=True, slots=True)
class Sanction:
    """One ban or mute, in force until it expires or is lifted."""

    id: int
    """Its number."""
    kind: SanctionKind
    """What it forbids."""
    subject: str
    """The name folded to lower case, or the network (``203.0.113.0/24``)."""
    shown: str
    """The name as its owner spells it, or the network."""
    reason: str
    """Why, as the moderator said it."""
    actor: str
    """Who imposed it: a moderator's name, or ``operator`` from the command line."""
    created_at: datetime
    """When."""
    expires_at: datetime | None
    """When it ends by itself; ``None``: never."""
    lifted_at: datetime | None = None
    """When it was lifted before it ended, if it was."""

    def in_force(self, now: datetime) -> bool:
        """Whether it applies at ``now``."""
        if self.lifted_at is not None:
            return False
        return self.expires_at is None or now < self.expires_at


@dataclass(frozen=True, slots=True)
class Report:
    """A player's report of another, with the context the server kept itself."""

    id: int
    """Its number."""
    reporter: str
    """Who reported."""
    subject: str
    """Whom they reported (as spelled)."""
    reason: str
    """What they said."""
    context: dict[str, Any]
    """What the server saw: the room and the chat lines around, as it kept them."""
    created_at: datetime
    """When."""
    closed_at: datetime | None = None
    """When a moderator closed it, if one has."""
    closed_by: str | None = None
    """Who closed it."""
    resolution: str | None = None
    """What the moderator said on closing it."""


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One moderation action: who did what to whom, why, when, until when."""

    id: int
    """Its number: entries are numbered in the order they were made."""
    at: datetime
    """When."""
    actor: str
    """Who did it."""
    action: str
    """What (``ban``, ``unban``, ``mute``, ``unmute``, ``ban_address``, ``grant``…)."""
    subject: str
    """To whom, or to which network or report."""
    reason: str
    """Why."""
    until: datetime | None = None
    """Until when it holds, for a sanction with an end."""
