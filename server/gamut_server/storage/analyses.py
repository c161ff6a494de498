"""The AI's analyses of finished games: one row per game, from the request to the report.

A row is ``queued`` when asked for, ``running`` once a worker has it (``done`` of
``total`` positions judged), then ``done`` with its report (the JSON the API serves) or
``failed`` with a sentence saying why. ``updated_at`` is the owning server's heartbeat:
a row left queued or running by a server that stopped is taken over by another once it
goes stale (:meth:`AnalysisStorage.adopt_analysis`). :class:`AnalysisStorage` is a mixin
of the :class:`~gamut_server.storage.Store`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import (
    CheckConstraint,
    Column,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_server.storage.mixin import StoreMixin
from gamut_server.storage.schema import JSONColumn, UTCDateTime, metadata

AnalysisStatus = Literal["queued", "running", "done", "failed"]
"""Where an analysis stands."""

UNFINISHED_ANALYSIS: tuple[AnalysisStatus, ...] = ("queued", "running")
"""The statuses of an analysis some server still owes."""

analyses = Table(
    "analyses",
    metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("status", String(8), nullable=False),
    Column("done", Integer, nullable=False, default=0),
    Column("total", Integer, nullable=False),
    Column("work", Integer, nullable=False),
    Column("report", JSONColumn),
    Column("message", Text),
    Column("requested_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("finished_at", UTCDateTime),
    CheckConstraint("status IN ('queued', 'running', 'done', 'failed')", name="ck_analyses_status"),
)
"""One analysis per game: its progress, then its report."""


@dataclass(frozen=True, slots=True)
class AnalysisRecord:
    """One game's analysis as stored."""

    game_id: str
    status: AnalysisStatus
    done: int
    """Positions judged so far."""
    total: int
    """Positions to judge."""
    work: int
    """Work each position gets."""
    report: dict[str, Any] | None
    """The finished analysis, as the API serves it; ``None`` until done."""
    message: str | None
    """Why it failed."""
    requested_at: datetime
    updated_at: datetime
    finished_at: datetime | None


def _record(row: Row[Any]) -> AnalysisRecord:
    return AnalysisRecord(
        game_id=row.game_id,
        status=row.status,
        done=row.done,
        total=row.total,
        work=row.work,
        report=row.report,
        message=row.message,
        requested_at=row.requested_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
    )


class AnalysisStorage(StoreMixin):
    """The store's methods for analyses."""

    async def analysis(self, game_id: str) -> AnalysisRecord | None:
        """The analysis of ``game_id``, if one was ever asked for."""
        statement = select(analyses).where(analyses.c.game_id == game_id)
        async with self._read() as conn:
            row = (await conn.execute(statement)).first()
        return None if row is None else _record(row)

    async def claim_analysis(
        self, game_id: str, total: int, work: int, at: datetime
    ) -> AnalysisRecord | None:
        """Queue a new analysis of ``game_id``; ``None`` if the game already has one."""
        row = {
            "game_id": game_id,
            "status": "queued",
            "done": 0,
            "total": total,
            "work": work,
            "requested_at": at,
            "updated_at": at,
        }

        async def claim(conn: AsyncConnection) -> None:
            await conn.execute(insert(analyses).values(row))

        try:
            await self._transact(claim)
        except IntegrityError:
            return None
        return AnalysisRecord(game_id, "queued", 0, total, work, None, None, at, at, None)

    async def adopt_analysis(
        self, game_id: str, seen: datetime, total: int, work: int, at: datetime
    ) -> bool:
        """Queue ``game_id``'s failed or abandoned analysis again, here; ``False`` if the
        row changed since it was read at ``seen`` (another server took it first)."""
        statement = (
            update(analyses)
            .where(analyses.c.game_id == game_id, analyses.c.updated_at == seen)
            .where(analyses.c.status != "done")
            .values(
                status="queued",
                done=0,
                total=total,
                work=work,
                message=None,
                requested_at=at,
                updated_at=at,
            )
        )
        result = await self._transact(lambda conn: conn.execute(statement))
        return bool(result.rowcount)

    async def analysis_progress(
        self, game_id: str, status: AnalysisStatus, done: int, at: datetime
    ) -> None:
        """Record that ``game_id``'s analysis is ``status`` with ``done`` positions judged."""
        statement = (
            update(analyses)
            .where(analyses.c.game_id == game_id, analyses.c.status.in_(UNFINISHED_ANALYSIS))
            .values(status=status, done=done, updated_at=at)
        )
        await self._transact(lambda conn: conn.execute(statement))

    async def finish_analysis(self, game_id: str, report: dict[str, Any], at: datetime) -> None:
        """Keep ``game_id``'s finished analysis."""
        statement = (
            update(analyses)
            .where(analyses.c.game_id == game_id)
            .values(
                status="done",
                done=analyses.c.total,
                report=report,
                message=None,
                updated_at=at,
                finished_at=at,
            )
        )
        await self._transact(lambda conn: conn.execute(statement))

    async def fail_analysis(self, game_id: str, message: str, at: datetime) -> None:
        """Record why ``game_id``'s analysis failed."""
        statement = (
            update(analyses)
            .where(analyses.c.game_id == game_id, analyses.c.status.in_(UNFINISHED_ANALYSIS))
            .values(status="failed", message=message, updated_at=at, finished_at=at)
        )
        await self._transact(lambda conn: conn.execute(statement))

    async def touch_analyses(self, game_ids: Collection[str], at: datetime) -> None:
        """Renew the heartbeat of the unfinished analyses ``game_ids`` (this server's)."""
        if not game_ids:
            return
        statement = (
            update(analyses)
            .where(analyses.c.game_id.in_(sorted(game_ids)))
            .where(analyses.c.status.in_(UNFINISHED_ANALYSIS))
            .values(updated_at=at)
        )
        await self._transact(lambda conn: conn.execute(statement))

    async def stale_analyses(self, before: datetime) -> list[AnalysisRecord]:
        """Unfinished analyses whose heartbeat stopped before ``before``, oldest first."""
        statement = (
            select(analyses)
            .where(analyses.c.status.in_(UNFINISHED_ANALYSIS), analyses.c.updated_at < before)
            .order_by(analyses.c.requested_at)
        )
        async with self._read() as conn:
            rows = (await conn.execute(statement)).all()
        return [_record(row) for row in rows]
