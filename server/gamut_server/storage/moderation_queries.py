"""Moderation's reads and writes, each inside a transaction the caller opens."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import RowMapping, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_server.records.moderation import AuditEntry, Report, Sanction, SanctionKind
from gamut_server.storage.moderation_schema import audit_log, blocks, moderators, reports, sanctions
from gamut_server.storage.schema import chat


async def audit(
    conn: AsyncConnection,
    at: datetime,
    actor: str,
    action: str,
    subject: str,
    reason: str,
    until: datetime | None = None,
) -> int:
    """Add one entry to the audit log; its number."""
    row = {"at": at, "actor": actor, "action": action, "subject": subject, "reason": reason}
    result = await conn.execute(insert(audit_log).values(until=until, **row))
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


async def last_audit_id(conn: AsyncConnection) -> int:
    """The number of the newest audit entry, 0 if none."""
    return int((await conn.execute(select(func.max(audit_log.c.id)))).scalar() or 0)


async def audit_entries(
    conn: AsyncConnection, limit: int, subject: str | None = None
) -> list[AuditEntry]:
    """The newest ``limit`` audit entries (about ``subject``, if given), newest first."""
    query = select(audit_log).order_by(audit_log.c.id.desc()).limit(limit)
    if subject is not None:
        query = query.where(func.lower(audit_log.c.subject) == subject.lower())
    rows = (await conn.execute(query)).mappings()
    return [AuditEntry(**{key: row[key] for key in _AUDIT_FIELDS}) for row in rows]


_AUDIT_FIELDS = ("id", "at", "actor", "action", "subject", "reason", "until")


async def grant(conn: AsyncConnection, account_id: int, at: datetime, actor: str) -> bool:
    """Make an account a moderator; ``False`` if it was one already."""
    if await is_moderator(conn, account_id):
        return False
    row = {"account_id": account_id, "granted_at": at, "granted_by": actor}
    await conn.execute(insert(moderators).values(row))
    return True


async def revoke(conn: AsyncConnection, account_id: int) -> bool:
    """Take the role away; ``False`` if the account had none."""
    result = await conn.execute(delete(moderators).where(moderators.c.account_id == account_id))
    return result.rowcount > 0


async def is_moderator(conn: AsyncConnection, account_id: int) -> bool:
    """Whether the account may moderate."""
    query = select(moderators.c.account_id).where(moderators.c.account_id == account_id)
    return (await conn.execute(query)).first() is not None


async def add_sanction(
    conn: AsyncConnection, kind: SanctionKind, subject: str, shown: str, fields: dict[str, Any]
) -> int:
    """Store a sanction (``fields``: reason, actor, created_at, expires_at); its number."""
    values = {"kind": kind, "subject": subject, "shown": shown, **fields}
    key = (await conn.execute(insert(sanctions).values(values))).inserted_primary_key
    assert key is not None
    return int(key[0])


async def lift(conn: AsyncConnection, kind: SanctionKind, subject: str, at: datetime) -> int:
    """Lift every sanction of ``kind`` on ``subject`` still in force; how many."""
    statement = (
        update(sanctions)
        .where(sanctions.c.kind == kind, sanctions.c.subject == subject)
        .where(sanctions.c.lifted_at.is_(None))
        .where((sanctions.c.expires_at.is_(None)) | (sanctions.c.expires_at > at))
        .values(lifted_at=at)
    )
    return (await conn.execute(statement)).rowcount


async def sanctions_in_force(conn: AsyncConnection, now: datetime) -> list[Sanction]:
    """Every sanction in force at ``now``."""
    query = (
        select(sanctions)
        .where(sanctions.c.lifted_at.is_(None))
        .where((sanctions.c.expires_at.is_(None)) | (sanctions.c.expires_at > now))
        .order_by(sanctions.c.id)
    )
    return [_sanction(row) for row in (await conn.execute(query)).mappings()]


async def sanctions_of(conn: AsyncConnection, subject: str) -> list[Sanction]:
    """Every sanction ever imposed on ``subject`` (a name folded, or a network), newest first."""
    query = select(sanctions).where(sanctions.c.subject == subject).order_by(sanctions.c.id.desc())
    return [_sanction(row) for row in (await conn.execute(query)).mappings()]


def _sanction(row: RowMapping) -> Sanction:
    """A sanctions row as a :class:`Sanction`."""
    return Sanction(**{key: row[key] for key in _SANCTION_FIELDS})


_SANCTION_FIELDS = (
    "id", "kind", "subject", "shown", "reason", "actor", "created_at", "expires_at", "lifted_at"
)  # fmt: skip


async def redact_chat(conn: AsyncConnection, room: str, seq: int, text: str) -> bool:
    """Replace a stored chat line's words; ``False`` if no such line is stored."""
    statement = update(chat).where(chat.c.room == room, chat.c.seq == seq).values(text=text)
    return (await conn.execute(statement)).rowcount == 1


async def chat_by(conn: AsyncConnection, author: str, limit: int) -> list[dict[str, Any]]:
    """The latest stored room chat lines of ``author`` (any case), newest first."""
    query = (
        select(chat.c.room, chat.c.seq, chat.c.author, chat.c.text, chat.c.at)
        .where(func.lower(chat.c.author) == author.lower())
        .order_by(chat.c.at.desc())
        .limit(limit)
    )
    return [dict(row) for row in (await conn.execute(query)).mappings()]


async def add_report(conn: AsyncConnection, fields: dict[str, Any]) -> int:
    """Store a report (reporter, subject, subject_key, reason, context, created_at)."""
    key = (await conn.execute(insert(reports).values(fields))).inserted_primary_key
    assert key is not None
    return int(key[0])


async def close_report(
    conn: AsyncConnection, report_id: int, at: datetime, actor: str, resolution: str
) -> bool:
    """Close an open report; ``False`` if there is no such open report."""
    statement = (
        update(reports)
        .where(reports.c.id == report_id, reports.c.closed_at.is_(None))
        .values(closed_at=at, closed_by=actor, resolution=resolution)
    )
    return (await conn.execute(statement)).rowcount == 1


async def list_reports(
    conn: AsyncConnection, *, open_only: bool, limit: int, subject_key: str | None = None
) -> list[Report]:
    """Reports, oldest open first (or newest first with closed ones)."""
    query = select(reports).limit(limit)
    if open_only:
        query = query.where(reports.c.closed_at.is_(None)).order_by(reports.c.id)
    else:
        query = query.order_by(reports.c.id.desc())
    if subject_key is not None:
        query = query.where(reports.c.subject_key == subject_key)
    rows = (await conn.execute(query)).mappings()
    return [Report(**{key: row[key] for key in _REPORT_FIELDS}) for row in rows]


_REPORT_FIELDS = (
    "id", "reporter", "subject", "reason", "context", "created_at", "closed_at", "closed_by",
    "resolution",
)  # fmt: skip


async def open_reports(conn: AsyncConnection) -> int:
    """How many reports are open."""
    query = select(func.count()).select_from(reports).where(reports.c.closed_at.is_(None))
    return int((await conn.execute(query)).scalar() or 0)


async def block(conn: AsyncConnection, account_id: int, name: str, at: datetime) -> None:
    """Keep ``name`` among the account's blocked players (once)."""
    key = name.lower()
    exists = select(blocks.c.account_id).where(
        blocks.c.account_id == account_id, blocks.c.blocked_key == key
    )
    if (await conn.execute(exists)).first() is None:
        row = {"account_id": account_id, "blocked_key": key, "blocked": name, "created_at": at}
        await conn.execute(insert(blocks).values(row))


async def unblock(conn: AsyncConnection, account_id: int, name: str) -> bool:
    """Forget a block; ``False`` if there was none."""
    statement = delete(blocks).where(
        blocks.c.account_id == account_id, blocks.c.blocked_key == name.lower()
    )
    return (await conn.execute(statement)).rowcount > 0


async def blocks_among(conn: AsyncConnection, account_ids: list[int]) -> list[tuple[int, str]]:
    """Every block kept by one of ``account_ids``: the account and the blocked name folded."""
    if not account_ids:
        return []
    query = select(blocks.c.account_id, blocks.c.blocked_key).where(
        blocks.c.account_id.in_(account_ids)
    )
    return [(int(row[0]), str(row[1])) for row in await conn.execute(query)]


async def blocked_by(conn: AsyncConnection, account_id: int) -> list[str]:
    """The names an account has blocked, in the order blocked."""
    query = (
        select(blocks.c.blocked)
        .where(blocks.c.account_id == account_id)
        .order_by(blocks.c.created_at, blocks.c.blocked_key)
    )
    return [str(name) for name in (await conn.execute(query)).scalars()]
