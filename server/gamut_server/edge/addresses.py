"""Limits per client address: open connections, sockets waiting for ``hello`` (and, in
:mod:`gamut_server.edge.guard`, for a request's head), new
connections, account registrations, password sign-ins, lobby chat lines and seeks.

An address one of whose connections was closed for flooding (refused frames, or a budget
kept empty), or that goes on asking over an allowance (more than :data:`REFUSED_RATE`
refused registrations or sign-ins), is cut off: its new connections are refused before the WebSocket
opens for :data:`CUT_OFF_MS` (``--limit cut_off=MS``), twice as long at each new offence
up to :data:`MAX_CUT_OFF_MS`, so a flood costs the server a refused HTTP request, not a
WebSocket handshake and a reader each time it reconnects. While an address is cut off,
has its most connections open or has used up its new ones, its sockets are refused as
they are accepted (:meth:`AddressLimits.refused_at_accept`, applied by
:mod:`gamut_server.edge.guard`): a short HTTP 429 saying why, written before a byte of
the request is read, so a flood that reconnects as fast as it can costs an accept and a
write, not a request parsed and answered.

A household or a bot farm behind one address shares these allowances, so the defaults
are generous for people and bots and tight only for floods. The address is the
socket's peer, unless the peer is a trusted reverse proxy, in which case it is the
last address of ``X-Forwarded-For`` that is not itself a trusted proxy.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Final, Literal, TypeAlias

from aiohttp import web

from gamut_server.rooms.limits import Rate, TokenBucket

Action: TypeAlias = Literal[
    "opening", "registrations", "sign_ins", "lobby_chat", "seeks", "reports", "refused"
]
"""What a per-address rate limits: new connections, registrations, sign-ins with a
password, lobby chat, seeks, reports of players, and requests refused over one of these."""

TRACKED_ADDRESSES: Final = 10_000
"""Addresses remembered before idle ones (nothing open, every allowance full) are forgotten."""

OPENING_RATE: Final = Rate(capacity=100, per_second=10)
"""Default limit on new connections from one address."""

REGISTRATION_RATE: Final = Rate(capacity=10, per_second=1 / 60)
"""Default limit on accounts registered from one address: 10 at once, then one a minute."""

SIGN_IN_RATE: Final = Rate(capacity=20, per_second=1 / 3)
"""Default limit on sign-ins with a password from one address: 20 at once, then one every
3 seconds."""

LOBBY_CHAT_RATE: Final = Rate(capacity=10, per_second=1)
"""Default limit on lobby chat lines from one address, all its connections together."""

SEEK_RATE: Final = Rate(capacity=50, per_second=2)
"""Default limit on seeks from one address, all its connections together."""

REPORT_RATE: Final = Rate(capacity=10, per_second=1 / 60)
"""Default limit on reports of players from one address: 10 at once, then one a minute."""

REFUSED_RATE: Final = Rate(capacity=20, per_second=1)
"""Default limit on requests from one address refused over its allowance (registrations
and sign-ins past theirs): 20 at once, then one a second; past it, the address is cut off."""

CUT_OFF_MS: Final = 5_000
"""How long an address is refused new connections after one was closed for flooding."""

MAX_CUT_OFF_MS: Final = 60_000
"""The longest cut-off, however often the address offends."""

FORGIVEN_MS: Final = 600_000
"""After this long without an offence, an address's next cut-off is the shortest again."""

TOO_MANY_NEW: Final = "too many new connections from your address: wait a little and retry"
"""Why a connection over its address's allowance of new ones is refused."""


@dataclass(frozen=True, slots=True)
class AddressRules:
    """The per-address limits of a server."""

    connections: int = 100
    """Most connections open at once from one address."""
    unwelcomed: int = 20
    """Most connections from one address that have not said ``hello`` yet."""
    unfinished: int = 64
    """Most sockets from one address that have not finished a request's head (see
    :mod:`gamut_server.edge.guard`); more are closed as they are accepted."""
    cut_off: int = CUT_OFF_MS
    """Milliseconds an address is first refused new connections after one was closed for
    flooding (twice as long at each new offence, up to :data:`MAX_CUT_OFF_MS`)."""
    opening: Rate = OPENING_RATE
    """New connections from one address: a burst, then a sustained rate."""
    registrations: Rate = REGISTRATION_RATE
    """Accounts registered from one address: 10 at once, then one a minute."""
    sign_ins: Rate = SIGN_IN_RATE
    """Sign-ins with a password from one address, right or wrong."""
    lobby_chat: Rate = LOBBY_CHAT_RATE
    """Lobby chat lines from one address, all its connections together."""
    seeks: Rate = SEEK_RATE
    """Seeks from one address, all its connections together."""
    reports: Rate = REPORT_RATE
    """Reports of players from one address."""
    refused: Rate = REFUSED_RATE
    """Requests from one address refused over an allowance, before it is cut off."""

    def rate(self, action: Action) -> Rate:
        """The rate limiting ``action``."""
        rate: Rate = getattr(self, action)
        return rate


@dataclass(slots=True)
class _Address:
    """What one address has open and what it has left."""

    open: int = 0
    unwelcomed: int = 0
    buckets: dict[Action, TokenBucket] = field(default_factory=dict)
    cut_off_until: int = 0
    """Until when (ms) its new connections are refused for flooding."""
    offences: int = 0
    """Cut-offs in a row (each doubles the next), forgiven after :data:`FORGIVEN_MS`."""

    def idle(self, now_ms: int) -> bool:
        """Whether forgetting it changes nothing: nothing open, every allowance full, no
        cut-off to remember."""
        full = all(b.tokens(now_ms) >= b.capacity for b in self.buckets.values())
        forgiven = now_ms >= self.cut_off_until + FORGIVEN_MS
        return self.open == 0 and full and (self.offences == 0 or forgiven)


class AddressLimits:
    """The allowances of every client address, driven by the caller's ``now_ms``."""

    def __init__(self, rules: AddressRules | None = None) -> None:
        """Nothing open yet."""
        self.rules = rules or AddressRules()
        """The limits applied."""
        self._addresses: dict[str, _Address] = {}

    def open(self, address: str, now_ms: int) -> str | None:
        """Count a new connection from ``address``; ``None`` if allowed, else why not."""
        state = self._state(address, now_ms)
        rules = self.rules
        closed = self._closed_to(state, now_ms)
        if closed is not None:
            return closed
        if state.unwelcomed >= rules.unwelcomed:
            return (
                f"too many connections from your address have not said hello: "
                f"{rules.unwelcomed} at most"
            )
        if not self._bucket(state, "opening", now_ms).allow(now_ms):
            return TOO_MANY_NEW
        state.open += 1
        state.unwelcomed += 1
        return None

    def refused_at_accept(self, address: str, now_ms: int) -> str | None:
        """Why a socket from ``address`` is refused as it is accepted, before a byte of its
        request is read, or ``None``: while the address is cut off, has its most
        connections open, or has no new connection left in its allowance, any WebSocket it
        asks for would be refused, so refusing its socket at once (whatever it would have
        asked) spares the server reading and answering one request after another."""
        state = self._addresses.get(address)
        if state is None:
            return None
        closed = self._closed_to(state, now_ms)
        if closed is not None:
            return closed
        opening = state.buckets.get("opening")
        if opening is not None and opening.wait_ms(now_ms):
            return TOO_MANY_NEW
        return None

    def _closed_to(self, state: _Address, now_ms: int) -> str | None:
        """Why ``state``'s address may open no connection whatever its allowance: cut off,
        or its most connections open; ``None`` if neither."""
        if now_ms < state.cut_off_until:
            seconds = -(-(state.cut_off_until - now_ms) // 1000)
            return (
                "a connection from your address was closed for flooding: wait "
                f"{seconds} s before connecting again"
            )
        if state.open >= self.rules.connections:
            return f"too many connections from your address: {self.rules.connections} at most"
        return None

    def cut_off(self, address: str, now_ms: int) -> int:
        """A connection from ``address`` was closed for flooding: refuse its new ones for a
        while, twice as long as last time (unless that was long ago); how long, in ms.
        Connections closed during one cut-off do not lengthen it."""
        state = self._state(address, now_ms)
        if now_ms < state.cut_off_until:
            return state.cut_off_until - now_ms
        if now_ms >= state.cut_off_until + FORGIVEN_MS:
            state.offences = 0
        first = self.rules.cut_off
        length = min(max(first, MAX_CUT_OFF_MS), first << min(state.offences, 8))
        state.offences += 1
        state.cut_off_until = now_ms + length
        return length

    def refused(self, address: str, now_ms: int) -> int | None:
        """A request from ``address`` was refused over one of its allowances: once its
        allowance of such refusals is spent too, the address is cut off (see
        :meth:`cut_off`); for how long, in ms, if so."""
        if self.allow("refused", address, now_ms):
            return None
        return self.cut_off(address, now_ms)

    def refused_sentence(self, sentence: str, address: str, now_ms: int) -> str:
        """``sentence``, refusing a request from ``address`` over an allowance, once the
        refusal is counted (:meth:`refused`): with the cut-off it brought, if it did."""
        cut_ms = self.refused(address, now_ms)
        if cut_ms is None:
            return sentence
        seconds = -(-cut_ms // 1000)
        cut = f"asked too often past that, your address may not connect for {seconds} s"
        return f"{sentence}; {cut}"

    def forgive(self, address: str) -> None:
        """Lift ``address``'s cut-off at once and forget its offences."""
        state = self._addresses.get(address)
        if state is not None:
            state.cut_off_until, state.offences = 0, 0

    def welcomed(self, address: str) -> None:
        """A connection from ``address`` said ``hello``."""
        state = self._addresses.get(address)
        if state is not None and state.unwelcomed > 0:
            state.unwelcomed -= 1

    def closed(self, address: str, *, welcomed: bool) -> None:
        """A connection from ``address`` closed."""
        state = self._addresses.get(address)
        if state is None:
            return
        state.open = max(0, state.open - 1)
        if not welcomed:
            state.unwelcomed = max(0, state.unwelcomed - 1)

    def allow(self, action: Action, address: str, now_ms: int) -> bool:
        """Whether ``address`` may do ``action`` once more now (it spends if so)."""
        state = self._state(address, now_ms)
        return self._bucket(state, action, now_ms).allow(now_ms)

    def wait_ms(self, action: Action, address: str, now_ms: int) -> int:
        """How long from ``now_ms`` until ``address`` may do ``action`` once more."""
        state = self._state(address, now_ms)
        return self._bucket(state, action, now_ms).wait_ms(now_ms)

    def open_from(self, address: str) -> int:
        """How many connections ``address`` has open."""
        state = self._addresses.get(address)
        return 0 if state is None else state.open

    def _state(self, address: str, now_ms: int) -> _Address:
        """The record of ``address``, made if new (forgetting idle ones when too many)."""
        state = self._addresses.get(address)
        if state is None:
            if len(self._addresses) >= TRACKED_ADDRESSES:
                self._forget_idle(now_ms)
            state = self._addresses[address] = _Address()
        return state

    def _bucket(self, state: _Address, action: Action, now_ms: int) -> TokenBucket:
        """The allowance of ``state`` for ``action``."""
        bucket = state.buckets.get(action)
        if bucket is None:
            bucket = state.buckets[action] = self.rules.rate(action).bucket(now_ms)
        return bucket

    def _forget_idle(self, now_ms: int) -> None:
        """Forget every address that has nothing open and every allowance full."""
        idle = [address for address, state in self._addresses.items() if state.idle(now_ms)]
        for address in idle:
            del self._addresses[address]


def client_address(request: web.BaseRequest, trusted_proxies: Collection[str] = ()) -> str:
    """The address of the client behind ``request``.

    The socket's peer, unless that peer is one of ``trusted_proxies``: then the last
    address of ``X-Forwarded-For`` that is not a trusted proxy (the one the nearest
    untrusted hop connected from).
    """
    peer = request.remote or "unknown"
    if peer not in trusted_proxies:
        return peer
    hops = [hop.strip() for hop in request.headers.get("X-Forwarded-For", "").split(",")]
    for hop in reversed(hops):
        if hop and hop not in trusted_proxies:
            return hop
    return peer


DEFAULT_ADDRESS_RULES: Final = AddressRules()
"""The default per-address limits."""
