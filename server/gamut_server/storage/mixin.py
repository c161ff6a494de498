"""The base of the :class:`~gamut_server.storage.Store`'s mixins: the two ways in."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection

from gamut_server.storage.group import Work

T = TypeVar("T")


class StoreMixin:
    """What a part of the store may use: group transactions and reading connections."""

    async def _transact(self, work: Work[T]) -> T:
        raise NotImplementedError  # pragma: no cover (the Store provides it)

    def _read(self) -> AbstractAsyncContextManager[AsyncConnection]:
        raise NotImplementedError  # pragma: no cover (the Store provides it)
