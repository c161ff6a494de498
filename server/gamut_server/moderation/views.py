"""Moderation records as text for the command line and as JSON for the API."""

from __future__ import annotations

from typing import Any

from gamut_server.records.moderation import AuditEntry, Report, Sanction


def _when(at: Any) -> str:
    """A timestamp as ``2026-11-27 07:00 UTC``."""
    return f"{at:%Y-%m-%d %H:%M} UTC"


def audit_line(entry: AuditEntry) -> str:
    """One audit entry on one line."""
    until = "" if entry.until is None else f" until {_when(entry.until)}"
    return (
        f"{_when(entry.at)}  {entry.actor}: {entry.action} {entry.subject}{until}: {entry.reason}"
    )


def report_lines(report: Report) -> list[str]:
    """A report: its heading, then the chat lines the server kept."""
    state = (
        "open" if report.closed_at is None else f"closed by {report.closed_by}: {report.resolution}"
    )
    lines = [
        f"#{report.id} {_when(report.created_at)}  {report.reporter} reports {report.subject} "
        f"({state}): {report.reason}"
    ]
    room = report.context.get("room_id")
    if room:
        lines.append(f"    in room {room}")
    for line in report.context.get("chat", []):
        lines.append(f"    {line.get('author')}: {line.get('text')}")
    return lines


def sanction_json(sanction: Sanction) -> dict[str, Any]:
    """A sanction for the API."""
    return {
        "id": sanction.id,
        "kind": sanction.kind,
        "subject": sanction.shown,
        "reason": sanction.reason,
        "by": sanction.actor,
        "at": sanction.created_at.isoformat(),
        "until": None if sanction.expires_at is None else sanction.expires_at.isoformat(),
        "lifted_at": None if sanction.lifted_at is None else sanction.lifted_at.isoformat(),
    }


def audit_json(entry: AuditEntry) -> dict[str, Any]:
    """An audit entry for the API."""
    return {
        "id": entry.id,
        "at": entry.at.isoformat(),
        "by": entry.actor,
        "action": entry.action,
        "subject": entry.subject,
        "reason": entry.reason,
        "until": None if entry.until is None else entry.until.isoformat(),
    }


def report_json(report: Report) -> dict[str, Any]:
    """A report for the API."""
    return {
        "id": report.id,
        "reporter": report.reporter,
        "subject": report.subject,
        "reason": report.reason,
        "context": report.context,
        "at": report.created_at.isoformat(),
        "closed_at": None if report.closed_at is None else report.closed_at.isoformat(),
        "closed_by": report.closed_by,
        "resolution": report.resolution,
    }
