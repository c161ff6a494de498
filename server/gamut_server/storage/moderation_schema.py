"""Moderation's tables: moderators, sanctions, reports, the audit log and blocks."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, String, Table, Text

from gamut_server.storage.schema import JSONColumn, UTCDateTime, metadata

moderators = Table(
    "moderators",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("granted_at", UTCDateTime, nullable=False),
    Column("granted_by", String, nullable=False),
)
"""The accounts that may moderate."""

sanctions = Table(
    "sanctions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),
    Column("subject", String, nullable=False),
    Column("shown", String, nullable=False),
    Column("reason", Text, nullable=False),
    Column("actor", String, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=True),
    Column("lifted_at", UTCDateTime, nullable=True),
    Index("ix_sanctions_kind_subject", "kind", "subject"),
)
"""Bans of names, mutes of names and bans of networks, each kept after it ends."""

reports = Table(
    "reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter", String, nullable=False),
    Column("subject", String, nullable=False),
    Column("subject_key", String, nullable=False),
    Column("reason", Text, nullable=False),
    Column("context", JSONColumn, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("closed_at", UTCDateTime, nullable=True),
    Column("closed_by", String, nullable=True),
    Column("resolution", Text, nullable=True),
    Index("ix_reports_open", "closed_at", "id"),
    Index("ix_reports_subject", "subject_key"),
)
"""Players' reports, with the context the server kept."""

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", UTCDateTime, nullable=False),
    Column("actor", String, nullable=False),
    Column("action", String(32), nullable=False),
    Column("subject", String, nullable=False),
    Column("reason", Text, nullable=False),
    Column("until", UTCDateTime, nullable=True),
)
"""Every moderation action, never changed or removed."""

blocks = Table(
    "blocks",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("blocked_key", String, primary_key=True),
    Column("blocked", String, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
)
"""The players each account has blocked, by name."""
