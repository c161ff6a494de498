"""Telling the database failing from a write refused, and which failures pass.

A write refused by the data (a ply already stored, a name taken) is the caller's to
handle. A database that fails (a dropped connection, a server restarting, a locked,
full or read-only file) raises :class:`~gamut_server.storage.errors.StorageUnavailableError`
instead, so that the rooms can tell it apart and go back to what is stored. A lost or
refused connection is worth trying again a few times (:data:`RETRY_PAUSES_S`): the
store's writes are idempotent by their keys (a move by its game and ply), so a group
whose commit may have reached the database before the connection dropped can run again.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy.exc import DBAPIError, IntegrityError

from gamut_server.storage.errors import StorageError, StorageUnavailableError

RETRY_PAUSES_S: Final = (0.1, 0.25, 0.5, 1.0, 1.5, 2.0)
"""Pauses between attempts at a group whose connection was lost: about five seconds in
all, the time a database takes to restart, after which the callers are told."""

_LOST: Final = (
    "connection",
    "closed",
    "terminat",
    "shutting down",
    "starting up",
    "recovery mode",
    "not accepting",
)
"""Words of a driver's error that say the connection, not the statement, failed."""


def failing(error: BaseException) -> bool:
    """Whether ``error`` is the database failing rather than a write it refused."""
    if isinstance(error, IntegrityError | StorageError):
        return False
    return isinstance(error, DBAPIError | OSError)


def lost(error: BaseException) -> bool:
    """Whether ``error`` is a lost or refused connection, worth trying again."""
    if isinstance(error, OSError):
        return True
    if not isinstance(error, DBAPIError) or isinstance(error, IntegrityError):
        return False
    if error.connection_invalidated:
        return True
    text = str(error.orig if error.orig is not None else error).lower()
    return any(word in text for word in _LOST)


def as_storage_error(error: Exception) -> Exception:
    """``error`` as the store raises it: the database failing becomes
    :class:`StorageUnavailableError` (caused by ``error``); anything else is unchanged."""
    if not failing(error):
        return error
    unavailable = StorageUnavailableError(f"the database failed: {type(error).__name__}: {error}")
    unavailable.__cause__ = error
    return unavailable
