"""Keeping a connection's link to a Gamut server up: heartbeat, reconnection, resume.

:class:`LinkKeeper` is the half of :class:`~gamut_client.connection.Connection` that
callers never touch: it says ``hello`` (once more at the oldest protocol version if the
server speaks an older one), reads the link, answers waiting requests, pings every
:attr:`~LinkKeeper.heartbeat` seconds, and when the link drops reconnects with growing
delays, says ``hello`` again with the guest token of the first ``welcome`` and asks
every followed room to ``resume``. What it reads goes to the connection's stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from dataclasses import replace
from typing import Final

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed as WsConnectionClosed

from gamut_client.addresses import server_url
from gamut_client.handshake import close_reason, open_link, parse
from gamut_client.link import (
    RETRYABLE_HELLO_ERRORS,
    Backoff,
    ClientClosedError,
    ConnectError,
    Disconnected,
    HelloRefusedError,
    Identity,
    Incoming,
    Reconnected,
)
from gamut_client.sequencer import Sequencer
from gamut_protocol import (
    MIN_PROTOCOL_VERSION,
    ErrorMessage,
    Join,
    Ping,
    Pong,
    ServerMessage,
    Welcome,
    dump,
)
from gamut_protocol.errors import UNSUPPORTED_VERSION

log = logging.getLogger(__name__)

DEFAULT_HEARTBEAT: Final = 15.0
"""Seconds between heartbeat pings; a ping unanswered for as long drops the link."""

DEFAULT_OPEN_TIMEOUT: Final = 10.0
"""Seconds to open the socket and be welcomed."""


class StreamEnd:
    """The type of :data:`STREAM_END`."""


STREAM_END: Final = StreamEnd()
"""Put in the stream when the connection is over."""


class LinkKeeper:
    """One connection's link and the work that keeps it up; see
    :class:`~gamut_client.connection.Connection`."""

    def __init__(
        self,
        url: str,
        identity: Identity,
        *,
        heartbeat: float | None = DEFAULT_HEARTBEAT,
        backoff: Backoff | None = None,
        open_timeout: float = DEFAULT_OPEN_TIMEOUT,
    ) -> None:
        """Set up, without connecting: :meth:`open` does both."""
        self.url = server_url(url)
        """The server's WebSocket URL."""
        self.identity = identity
        """Who says ``hello``; the guest token of the last ``welcome`` is kept here."""
        self.heartbeat = heartbeat
        """Seconds between heartbeat pings; ``None`` sends none."""
        self.backoff = backoff or Backoff()
        """How reconnection attempts are spaced."""
        self.open_timeout = open_timeout
        """Seconds to open the socket and be welcomed."""
        self.latency: float | None = None
        """The last heartbeat's round trip, in seconds."""
        self.beats = 0
        """Heartbeats answered so far."""
        self.reconnections = 0
        """How many times the link dropped and came back."""
        self._welcome: Welcome | None = None
        self._link: ClientConnection | None = None
        self._up = asyncio.Event()
        self._inbox: asyncio.Queue[Incoming | StreamEnd] = asyncio.Queue()
        self._ended = False
        self._sequencer = Sequencer()
        self._pending: dict[str | int, asyncio.Future[ServerMessage]] = {}
        self._ids = itertools.count(1)
        self._beat: tuple[str, asyncio.Event] | None = None
        self._drop_reason: str | None = None
        self._supervisor: asyncio.Task[None] | None = None
        self._closing = False
        self._failure: ConnectError | None = None

    def _next_id(self, prefix: str) -> str:
        """A fresh correlation id."""
        return f"{prefix}{next(self._ids)}"

    async def _ready_link(self) -> ClientConnection:
        """The link, once it is up; raises if the connection is over."""
        while True:
            if self._closing:
                raise ClientClosedError("the connection is closed")
            if self._failure is not None:
                raise self._failure
            if self._up.is_set() and self._link is not None:
                return self._link
            await self._up.wait()

    async def _handshake(self) -> tuple[ClientConnection, Welcome]:
        """Open a link and say ``hello``; returns it once welcomed.

        A server that does not speak this client's protocol version is greeted once
        more at the oldest version, which every Gamut server speaks, and is spoken to
        in it from then on.
        """
        try:
            return await self._greet()
        except HelloRefusedError as refusal:
            oldest = MIN_PROTOCOL_VERSION
            if refusal.error.code != UNSUPPORTED_VERSION or self.identity.protocol <= oldest:
                raise
            log.info("%s; saying hello at protocol version %d", refusal, oldest)
        self.identity = replace(self.identity, protocol=oldest)
        return await self._greet()

    async def _greet(self) -> tuple[ClientConnection, Welcome]:
        """Open a link and say ``hello`` once."""
        hello = self.identity.hello(self._next_id("h"))
        return await open_link(self.url, hello, timeout=self.open_timeout)

    def _attach(self, link: ClientConnection, welcome: Welcome) -> None:
        """Make ``link`` the current one; keep the guest token for the next ``hello``."""
        self._link = link
        self._welcome = welcome
        self._drop_reason = None
        if welcome.token is not None:
            self.identity = replace(self.identity, token=welcome.token)

    async def _supervise(self, link: ClientConnection) -> None:
        """Pump the link; when it drops, reconnect and resume, until closed or failed."""
        try:
            while True:
                reason = await self._pump(link)
                self._up.clear()
                self._fail_pending(reason)
                if self._closing:
                    return
                log.info("link to %s dropped: %s", self.url, reason)
                self._inbox.put_nowait(Disconnected(reason))
                link = await self._reconnect()
        except ConnectError as error:
            self._failure = error
            self._up.set()
            self._fail_pending(str(error))
        finally:
            self._end()

    async def _pump(self, link: ClientConnection) -> str:
        """Read the link until it closes (running the heartbeat meanwhile); returns why."""
        beat = asyncio.create_task(self._heartbeat(link)) if self.heartbeat else None
        try:
            async for raw in link:
                await self._receive(link, raw)
            return self._drop_reason or close_reason(link, "the server closed the connection")
        except WsConnectionClosed:
            return self._drop_reason or close_reason(link, "the connection was lost")
        finally:
            if beat is not None:
                beat.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await beat

    async def _receive(self, link: ClientConnection, raw: str | bytes) -> None:
        """Sequence one incoming message, answer waiting requests, and queue it."""
        message = parse(raw)
        if message is None:
            return
        if isinstance(message, Pong) and self._beat and message.reply_to == self._beat[0]:
            self._beat[1].set()
            return
        if isinstance(message, ErrorMessage):
            self._sequencer.refused(message)
        admission = self._sequencer.admit(message)
        if admission.resume is not None:
            with contextlib.suppress(WsConnectionClosed):
                await link.send(dump(admission.resume))
        waiting = self._pending.pop(message.reply_to, None) if message.reply_to else None
        if waiting is not None and not waiting.done():
            waiting.set_result(message)
        if admission.deliver:
            self._inbox.put_nowait(message)

    async def _heartbeat(self, link: ClientConnection) -> None:
        """Ping every :attr:`heartbeat` seconds; cut the link if a pong is that late."""
        assert self.heartbeat is not None
        while True:
            await asyncio.sleep(self.heartbeat)
            answered = asyncio.Event()
            self._beat = (self._next_id("hb"), answered)
            started = time.monotonic()
            await link.send(dump(Ping(id=self._beat[0])))
            try:
                await asyncio.wait_for(answered.wait(), self.heartbeat)
            except TimeoutError:
                self._drop_reason = f"no answer to a ping in {self.heartbeat:g} s"
                link.transport.abort()
                return
            self.latency = time.monotonic() - started
            self.beats += 1

    async def _reconnect(self) -> ClientConnection:
        """Say ``hello`` again after growing delays; resume the rooms; returns the new link."""
        attempts = 0
        for delay in self.backoff.delays():
            await asyncio.sleep(delay)
            attempts += 1
            try:
                link, welcome = await self._handshake()
            except HelloRefusedError as refusal:
                if refusal.error.code not in RETRYABLE_HELLO_ERRORS:
                    raise
                log.info("reconnection refused, will retry: %s", refusal)
                continue
            except ConnectError as error:
                log.info("reconnection failed, will retry: %s", error)
                continue
            self._attach(link, welcome)
            self.reconnections += 1
            resumed = await self._resume(link, welcome)
            self._inbox.put_nowait(Reconnected(welcome, resumed))
            self._up.set()
            return link
        raise ConnectError(f"could not reconnect to {self.url} in {attempts} attempts")

    async def _resume(self, link: ClientConnection, welcome: Welcome) -> tuple[str, ...]:
        """Ask each followed room to replay what was missed; take seats in rooms not followed."""
        resumes = self._sequencer.resumes()
        known = {resume.room_id for resume in resumes}
        joins = [Join(room_id=room, role="player") for room in welcome.rooms if room not in known]
        for message in [*resumes, *joins]:
            await link.send(dump(message))
        return tuple(message.room_id for message in [*resumes, *joins])

    def _fail_pending(self, reason: str) -> None:
        """Fail every request still waiting for its answer."""
        for waiting in self._pending.values():
            if not waiting.done():
                waiting.set_exception(ConnectError(f"the link dropped before the answer: {reason}"))
        self._pending.clear()

    def _end(self) -> None:
        """Mark the end of the stream (once)."""
        if not self._ended:
            self._ended = True
            self._inbox.put_nowait(STREAM_END)
