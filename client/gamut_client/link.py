"""What a :class:`~gamut_client.connection.Connection` is told and what it tells back.

Who connects (:class:`Identity`), how it retries (:class:`Backoff`), the notices it
puts in its message stream when the link drops and comes back (:class:`Disconnected`,
:class:`Reconnected`), and the errors it raises. Nothing here does I/O.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from gamut_protocol import (
    PROTOCOL_VERSION,
    ClientKind,
    ErrorMessage,
    Hello,
    ServerMessage,
    Welcome,
)

CLIENT_NAME: Final = "gamut-client 0.1"
"""How the connection names its software in ``hello`` unless told otherwise."""

RETRYABLE_HELLO_ERRORS: Final = frozenset(
    {"name_taken", "unavailable", "rate_limited", "internal_error"}
)
"""Refusals of a reconnecting ``hello`` worth retrying: the server may not yet have noticed
that the old connection is gone (``name_taken``), or is briefly busy."""


@dataclass(frozen=True, slots=True)
class Identity:
    """Who says ``hello``: the fields of the first message on every link."""

    name: str
    """The name to play under."""
    kind: ClientKind = "human"
    """``human`` for a client a person drives, ``bot`` for a program."""
    token: str | None = None
    """An account's token, or a guest's token to reclaim the name."""
    client: str = CLIENT_NAME
    """The client software, for the server's logs."""
    lobby: bool = True
    """Whether to follow the lobby."""
    protocol: int = PROTOCOL_VERSION
    """The protocol version to speak."""

    def hello(self, message_id: str) -> Hello:
        """The ``hello`` message for this identity."""
        return Hello(
            id=message_id,
            protocol=self.protocol,
            name=self.name,
            kind=self.kind,
            token=self.token,
            client=self.client,
            lobby=self.lobby,
        )


@dataclass(frozen=True, slots=True)
class Backoff:
    """How long to wait between reconnection attempts: growing delays with some jitter."""

    initial: float = 0.5
    """Seconds before the first attempt after a drop."""
    factor: float = 2.0
    """How much each delay grows over the one before."""
    maximum: float = 15.0
    """The longest delay."""
    jitter: float = 0.2
    """Each delay is moved by up to this share of it, so clients do not return in lockstep."""
    attempts: int | None = None
    """Attempts before giving up; ``None``: never give up."""
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)
    """Where the jitter comes from (seed it for reproducible delays)."""

    def delays(self) -> Iterator[float]:
        """The delay before each attempt, in seconds; ends after :attr:`attempts` delays."""
        delay = self.initial
        count = 0
        while self.attempts is None or count < self.attempts:
            spread = delay * self.jitter
            yield max(0.0, delay + self.rng.uniform(-spread, spread))
            delay = min(self.maximum, delay * self.factor)
            count += 1


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The link dropped; the connection is trying to come back."""

    reason: str
    """Why, in words."""


@dataclass(frozen=True, slots=True)
class Reconnected:
    """The link is back, and every followed room was asked to resume where it stopped."""

    welcome: Welcome
    """The server's new ``welcome``."""
    resumed: tuple[str, ...]
    """The rooms asked to replay what was missed."""


LinkEvent = Disconnected | Reconnected
"""A notice about the link itself, in the same stream as the server's messages."""

Incoming = ServerMessage | LinkEvent
"""What iterating a connection yields: a server message or a notice about the link."""


class ConnectError(Exception):
    """The connection could not be made, or could not be made again."""


class HelloRefusedError(ConnectError):
    """The server refused the ``hello`` (bad token, name taken, unsupported version…)."""

    def __init__(self, error: ErrorMessage) -> None:
        super().__init__(f"{error.code}: {error.message}")
        self.error = error
        """The server's ``error`` message."""


class ClientClosedError(Exception):
    """The connection was closed by its owner; nothing more can be sent."""


class RequestError(Exception):
    """The server answered a request with an ``error``."""

    def __init__(self, error: ErrorMessage) -> None:
        super().__init__(f"{error.code}: {error.message}")
        self.error = error
        """The server's ``error`` message."""
