"""The moderation actions, one set of rules for the command line, the HTTP API and the
``/mod`` page: each checked, stored, and written to the audit log in one transaction.

``actor`` is who acts: a moderator's account name, or ``operator`` for the command line
at the server's machine. Every action takes a reason; sanctions take an optional
duration (``None``: until lifted).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, Final

from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_protocol.common import MAX_CHAT_LENGTH
from gamut_server.moderation.rules import parse_network
from gamut_server.records.games import REMOVED_LINE
from gamut_server.records.moderation import SanctionKind
from gamut_server.storage import Account, Store
from gamut_server.storage import moderation_queries as queries

OPERATOR: Final = "operator"
"""The actor named for actions taken from the command line."""

TAKE_NAME_FOR: Final = timedelta(days=1)
"""How long guests are kept off a name when no duration is given."""

MAX_REASON_LENGTH: Final = MAX_CHAT_LENGTH
"""Longest reason a moderator or a reporter gives."""


class ActionError(ValueError):
    """An action that cannot be taken, with a sentence saying why."""


class Moderation:
    """Moderation actions on one store."""

    def __init__(self, store: Store) -> None:
        """Actions on ``store``."""
        self.store = store

    async def grant(self, actor: str, name: str, reason: str = "granted") -> str:
        """Make the account ``name`` a moderator; the sentence saying so."""
        account = await self._account(name)
        entry = _entry(actor, "grant", account.name, reason)
        done = await self.store.audited(
            entry, lambda conn: queries.grant(conn, account.id, entry["at"], actor)
        )
        return f"{account.name} {'is now' if done else 'was already'} a moderator"

    async def revoke(self, actor: str, name: str, reason: str = "revoked") -> str:
        """Take the moderator role from the account ``name``."""
        account = await self._account(name)
        entry = _entry(actor, "revoke", account.name, reason)
        done = await self.store.audited(entry, lambda conn: queries.revoke(conn, account.id))
        return f"{account.name} {'is no longer' if done else 'was not'} a moderator"

    async def ban(self, actor: str, name: str, reason: str, length: timedelta | None) -> str:
        """Ban the player ``name`` (an account, or a guest's name)."""
        return await self._sanction(actor, "ban", await self._shown(name), reason, length)

    async def mute(self, actor: str, name: str, reason: str, length: timedelta | None) -> str:
        """Mute the player ``name``: their chat lines are refused."""
        return await self._sanction(actor, "mute", await self._shown(name), reason, length)

    async def take_name(self, actor: str, name: str, reason: str, length: timedelta | None) -> str:
        """Take a guest off ``name``: their sessions under it end, and no guest may use it
        for ``length`` (an account's name is refused: ban the account instead)."""
        account = await self.store.account(name)
        if account is not None:
            raise ActionError(
                f"{account.name!r} is an account, not a guest's name: ban the account instead"
            )
        return await self._sanction(actor, "name", name, reason, length)

    async def ban_address(
        self, actor: str, network: str, reason: str, length: timedelta | None
    ) -> str:
        """Ban an address or a network range: refused before the WebSocket opens."""
        return await self._sanction(actor, "address", str(parse_network(network)), reason, length)

    async def lift(self, actor: str, kind: SanctionKind, subject: str, reason: str) -> str:
        """Lift the ``kind`` of sanction on a name or a network."""
        key = str(parse_network(subject)) if kind == "address" else subject.lower()
        action = _LIFTED[kind]
        entry = _entry(actor, action, subject, _reason(reason))
        lifted = await self.store.audited(
            entry, lambda conn: queries.lift(conn, kind, key, entry["at"])
        )
        if not lifted:
            return f"nothing to lift: {subject} had no {_NOUNS[kind]} in force"
        return f"the {_NOUNS[kind]} of {subject} is lifted"

    async def close_report(self, actor: str, report_id: int, resolution: str) -> str:
        """Close a report with what was done about it."""
        entry = _entry(actor, "close_report", f"report {report_id}", _reason(resolution))

        async def close(conn: AsyncConnection) -> None:
            if not await queries.close_report(conn, report_id, entry["at"], actor, resolution):
                raise ActionError(f"there is no open report {report_id}")

        await self.store.audited(entry, close)
        return f"report {report_id} is closed"

    async def redact_line(self, actor: str, room_id: str, seq: int, reason: str) -> None:
        """Log the removal of a room's chat line and keep the line without its words."""
        entry = _entry(actor, "remove_line", f"room {room_id} line {seq}", _reason(reason))
        await self.store.audited(
            entry, lambda conn: queries.redact_chat(conn, room_id, seq, REMOVED_LINE)
        )

    async def record(self, actor: str, action: str, subject: str, reason: str) -> None:
        """Log an action taken on the live server (a chat line removed, a room aborted)."""
        entry = _entry(actor, action, subject, _reason(reason))
        await self.store.audited(entry, _nothing)

    async def _sanction(
        self,
        actor: str,
        kind: SanctionKind,
        shown: str,
        reason: str,
        length: timedelta | None,
    ) -> str:
        """Store a sanction and its audit entry; the sentence saying what was done."""
        reason = _reason(reason)
        at = datetime.now(UTC)
        until = None if length is None else at + length
        action = _TAKEN[kind]
        entry = _entry(actor, action, shown, reason, at=at, until=until)
        subject = shown if kind == "address" else shown.lower()
        fields = {"reason": reason, "actor": actor, "created_at": at, "expires_at": until}
        await self.store.audited(
            entry, lambda conn: queries.add_sanction(conn, kind, subject, shown, fields)
        )
        when = "for good" if until is None else f"until {until:%Y-%m-%d %H:%M} UTC"
        return f"{shown} is {_PAST[kind]} {when}"

    async def _account(self, name: str) -> Account:
        """The account called ``name``, or an :class:`ActionError`."""
        account = await self.store.account(name)
        if account is None:
            raise ActionError(f"there is no account called {name!r}")
        return account

    async def _shown(self, name: str) -> str:
        """``name`` as its account spells it (as given for a guest)."""
        account = await self.store.account(name)
        return name if account is None else account.name


_NOUNS: Final = {
    "ban": "ban",
    "mute": "mute",
    "address": "ban of the address",
    "name": "hold on the name",
}
_PAST: Final = {"ban": "banned", "mute": "muted", "address": "banned", "name": "kept from guests"}
_TAKEN: Final = {"ban": "ban", "mute": "mute", "address": "ban_address", "name": "take_name"}
_LIFTED: Final = {
    "ban": "unban",
    "mute": "unmute",
    "address": "unban_address",
    "name": "release_name",
}


def _reason(reason: str) -> str:
    """A reason, checked: one line of at most :data:`MAX_REASON_LENGTH` characters."""
    reason = " ".join(reason.split())
    if not reason:
        raise ActionError("every action needs a reason")
    if len(reason) > MAX_REASON_LENGTH:
        raise ActionError(f"a reason has at most {MAX_REASON_LENGTH} characters")
    return reason


def _entry(
    actor: str,
    action: str,
    subject: str,
    reason: str,
    *,
    at: datetime | None = None,
    until: datetime | None = None,
) -> dict[str, Any]:
    """An audit entry's fields."""
    at = at or datetime.now(UTC)
    return {
        "at": at,
        "actor": actor,
        "action": action,
        "subject": subject,
        "reason": reason,
        "until": until,
    }


async def _nothing(conn: object) -> None:
    """No change besides the audit entry."""
