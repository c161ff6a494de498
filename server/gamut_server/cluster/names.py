"""Player names across the nodes: a name is held by one guest token, or by an account.

Each node keeps its own :class:`~gamut_server.core.identity.Names`; Redis holds the binding
every node must respect: ``{c}:name:{name}`` is a guest token's salted digest, or
``account``. A binding lasts :data:`NAME_TTL_S` and is renewed by every node that uses
the name or seats it in a room, so a name in use is never free anywhere, and a name
nobody uses any more frees itself. A binding is never deleted outright: a second
connection under the name, on another node, may still need it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Final

import redis.asyncio as aioredis

from gamut_protocol.errors import BAD_TOKEN, NAME_TAKEN, UNAVAILABLE
from gamut_server.cluster.keys import Keys, text
from gamut_server.core.identity import NameRefusedError, TokenDigest

NAME_TTL_S: Final = 60.0
"""Seconds a binding lasts unless renewed."""

ACCOUNT: Final = "account"
"""The binding of a name an account holds."""

NAMES_DOWN: Final = (
    "names cannot be checked across the servers for a moment (their message bus is "
    "down): please say hello again in a few seconds"
)
"""What a ``hello`` is answered while Redis cannot be reached."""


@contextlib.contextmanager
def _refused_while_down() -> Iterator[None]:
    """A Redis that cannot be reached refuses the ``hello`` in a sentence (``unavailable``)."""
    try:
        yield
    except (aioredis.RedisError, OSError) as error:
        raise NameRefusedError(UNAVAILABLE, NAMES_DOWN) from error


class SharedNames:
    """The cluster's name bindings."""

    def __init__(self, client: aioredis.Redis, keys: Keys) -> None:
        """Bindings in ``client`` under ``keys``."""
        self._redis = client
        self._keys = keys
        self._ttl_ms = round(NAME_TTL_S * 1000)

    async def guest_digest(self, name: str, token: str | None) -> TokenDigest | None:
        """The digest binding ``name`` to a guest whose token ``token`` is; ``None`` if
        the name is free. Raises :class:`NameRefusedError` when another token, or an
        account, holds it."""
        with _refused_while_down():
            bound = text(await self._redis.get(self._keys.name(name)))
        if bound is None:
            return None
        if bound == ACCOUNT:
            raise NameRefusedError(NAME_TAKEN, f"{name!r} is a registered account")
        digest = TokenDigest.parse(bound)
        if token is None:
            raise NameRefusedError(
                NAME_TAKEN, f"the name {name!r} is in use; send its token to reclaim it"
            )
        if not digest.matches(token):
            raise NameRefusedError(BAD_TOKEN, f"that is not the token of {name!r}")
        return digest

    async def bind_guest(self, name: str, digest: TokenDigest) -> bool:
        """Bind the free ``name`` to ``digest``; ``False`` if another node bound it first."""
        key = self._keys.name(name)
        with _refused_while_down():
            return bool(await self._redis.set(key, digest.stored(), nx=True, px=self._ttl_ms))

    async def bind_account(self, name: str) -> None:
        """Mark ``name`` as held by its account; raises :class:`NameRefusedError` while a
        guest holds it."""
        key = self._keys.name(name)
        with _refused_while_down():
            bound = text(await self._redis.set(key, ACCOUNT, nx=True, px=self._ttl_ms, get=True))
        if bound not in (None, ACCOUNT):
            raise NameRefusedError(
                NAME_TAKEN,
                f"a guest called {name!r} is playing under this name: wait until they let it go",
            )
        if bound == ACCOUNT:
            await self._redis.pexpire(key, self._ttl_ms)

    async def bound(self, name: str) -> bool:
        """Whether a node uses or seats ``name`` now (or did in the last minute)."""
        return bool(await self._redis.exists(self._keys.name(name)))

    async def guest_bound(self, name: str) -> bool:
        """Whether a guest holds ``name`` on any node."""
        bound = text(await self._redis.get(self._keys.name(name)))
        return bound is not None and bound != ACCOUNT

    async def renew(self, bindings: dict[str, str | None]) -> None:
        """Renew the bindings of the names this node uses or seats: each name's value
        (a digest's stored form or ``account``) is set again, or, where it is ``None``
        (a seat only), its binding's life is extended."""
        pipe = self._redis.pipeline(transaction=False)
        for name, value in bindings.items():
            key = self._keys.name(name)
            if value is None:
                pipe.pexpire(key, self._ttl_ms)
            else:
                pipe.set(key, value, px=self._ttl_ms)
        await pipe.execute()
