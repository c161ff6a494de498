"""The base of the :class:`~gamut_server.storage.Store`'s mixins: the ways in to group
transactions and reading connections, and the instant a write is recorded at."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_server.storage.group import Batch, Work

T = TypeVar("T")


def aware_now(at: datetime | None) -> datetime:
    """``at``, which must be timezone-aware, or the current time if it is ``None``."""
    if at is None:
        return datetime.now(UTC)
    if at.tzinfo is None:
        raise ValueError("timestamps must be timezone-aware")
    return at


class StoreMixin:
    """What a part of the store may use: group transactions and reading connections."""

    async def _transact(self, work: Work[T]) -> T:
        raise NotImplementedError  # pragma: no cover (the Store provides it)

    async def _committed(self, work: Work[T], batch: Batch | None = None, item: Any = None) -> T:
        raise NotImplementedError  # pragma: no cover (the Store provides it)

    def _read(self) -> AbstractAsyncContextManager[AsyncConnection]:
        raise NotImplementedError  # pragma: no cover (the Store provides it)
