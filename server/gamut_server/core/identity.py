"""Who may use which name: guest names held by a token, account names by their account.

A guest's first ``hello`` under a free name binds the name to a token: the one the
``hello`` carried, or a fresh one sent back in ``welcome``. Later connections under
that name (a second terminal, or a reconnection after a drop) must show the token.
The name stays bound while a connection uses it or while its player holds a seat in
an unfinished game, so nobody can take a dropped player's seat during the grace
period. Only a salted hash of the token is kept (:class:`TokenDigest`); the hub stores
it, so that after a restart a seated guest's name is bound again to the same token.

A name bound to a guest never passes to another credential: an account cannot sign in
under it, and it cannot be registered, until the guest has let it go. Names are one
whatever their case (``Ada_L`` is ``ada_l``): whoever holds one holds every spelling,
and is known by the spelling they took it with.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Final

from gamut_protocol.common import name_key
from gamut_protocol.errors import BAD_TOKEN, NAME_TAKEN, ErrorCode
from gamut_server.people.names import reserved_because

TOKEN_BYTES: Final = 24
"""Random bytes in a guest token."""

SALT_BYTES: Final = 16
"""Random bytes of the key each token's hash is made with."""


class NameRefusedError(ValueError):
    """A ``hello`` may not use this name; ``code`` is the error code to answer with."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        """``name_taken`` or ``bad_token``."""
        self.message = message
        """Why, for people."""


@dataclass(frozen=True, slots=True)
class TokenDigest:
    """A guest token kept as HMAC-SHA256 under a random salt: enough for a random token,
    and never the token itself."""

    salt: bytes
    """The random key of the hash."""
    digest: bytes
    """HMAC-SHA256 of the token under ``salt``."""

    @classmethod
    def of(cls, token: str) -> TokenDigest:
        """The digest of ``token`` under a fresh salt."""
        salt = secrets.token_bytes(SALT_BYTES)
        return cls(salt, _mac(salt, token))

    @classmethod
    def parse(cls, text: str) -> TokenDigest:
        """A digest from its stored form (``salt$digest`` in hex)."""
        salt, _, digest = text.partition("$")
        return cls(bytes.fromhex(salt), bytes.fromhex(digest))

    def stored(self) -> str:
        """Its stored form."""
        return f"{self.salt.hex()}${self.digest.hex()}"

    def matches(self, token: str) -> bool:
        """Whether ``token`` is the token this digest was made from."""
        return hmac.compare_digest(_mac(self.salt, token), self.digest)


def _mac(salt: bytes, token: str) -> bytes:
    """HMAC-SHA256 of ``token`` under ``salt``."""
    return hmac.new(salt, token.encode(), hashlib.sha256).digest()


@dataclass(slots=True)
class _Claim:
    """One bound name: its holder's spelling, the guest token's digest (``None`` for an
    account) and the connections using it."""

    name: str
    guest: TokenDigest | None
    connections: set[int] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class GuestClaim:
    """A guest name newly bound: its token, for ``welcome``, and the digest to store."""

    token: str
    """The name's token."""
    digest: TokenDigest | None
    """The digest to store, when the binding is new; ``None`` when it was bound already."""
    name: str = ""
    """The name as its holder spells it."""


class Names:
    """The bound names of a running server, one whatever its case."""

    def __init__(self) -> None:
        """No name bound."""
        self._claims: dict[str, _Claim] = {}
        self._registering: set[str] = set()

    def __contains__(self, name: str) -> bool:
        return name_key(name) in self._claims

    def claim(self, name: str, token: str | None, connection: int) -> GuestClaim:
        """Bind ``name`` to a guest's ``connection``.

        Raises :class:`NameRefusedError` for a reserved name, one being registered, one
        an account holds, or a guest's whose token ``token`` is not.
        """
        reserved = reserved_because(name)
        if reserved is not None:
            raise NameRefusedError(NAME_TAKEN, reserved)
        key = name_key(name)
        if key in self._registering:
            raise NameRefusedError(NAME_TAKEN, f"the name {name!r} is being registered")
        claim = self._claims.get(key)
        if claim is None:
            token = token or secrets.token_urlsafe(TOKEN_BYTES)
            digest = TokenDigest.of(token)
            self._claims[key] = _Claim(name, digest, {connection})
            return GuestClaim(token, digest, name)
        if claim.guest is None:
            raise NameRefusedError(NAME_TAKEN, _account_holds(name, claim.name))
        if token is None:
            raise NameRefusedError(NAME_TAKEN, _in_use(name, claim.name))
        if not claim.guest.matches(token):
            raise NameRefusedError(BAD_TOKEN, f"that is not the token of {claim.name!r}")
        claim.connections.add(connection)
        return GuestClaim(token, None, claim.name)

    def claim_account(self, name: str, connection: int) -> None:
        """Bind an account's ``name`` to ``connection`` (its token was verified against
        the account); refused while a guest holds the name."""
        claim = self._claims.setdefault(name_key(name), _Claim(name, None))
        if claim.guest is not None:
            raise NameRefusedError(
                NAME_TAKEN,
                f"a guest called {claim.name!r} is playing under this name: "
                "wait until they let it go",
            )
        claim.name = name
        claim.connections.add(connection)

    def restore(self, name: str, digest: TokenDigest) -> None:
        """Bind ``name`` again to a guest's stored token (a seated guest, after a restart)."""
        self._claims.setdefault(name_key(name), _Claim(name, digest))

    def guest_bound(self, name: str) -> bool:
        """Whether a guest holds ``name`` (connected, away, or seated in a game)."""
        claim = self._claims.get(name_key(name))
        return claim is not None and claim.guest is not None

    @contextmanager
    def registering(self, name: str) -> Iterator[None]:
        """Keep guests off ``name`` while it is being registered."""
        key = name_key(name)
        self._registering.add(key)
        try:
            yield
        finally:
            self._registering.discard(key)

    def release(self, name: str, connection: int, *, keep: bool) -> None:
        """``connection`` stopped using ``name``; with no other and not ``keep``, free it."""
        key = name_key(name)
        claim = self._claims.get(key)
        if claim is None:
            return
        claim.connections.discard(connection)
        if not claim.connections and not keep:
            del self._claims[key]

    def online(self, name: str) -> bool:
        """Whether a connection uses ``name`` now."""
        claim = self._claims.get(name_key(name))
        return claim is not None and bool(claim.connections)

    def bindings(self) -> dict[str, str]:
        """Every bound name, as its holder spells it: a guest's digest in its stored form,
        or ``account``."""
        return {
            claim.name: "account" if claim.guest is None else claim.guest.stored()
            for claim in self._claims.values()
        }

    def forget_idle(self, name: str) -> None:
        """Free ``name`` if no connection uses it (its last unfinished game ended)."""
        key = name_key(name)
        claim = self._claims.get(key)
        if claim is not None and not claim.connections:
            del self._claims[key]


def _account_holds(name: str, holder: str) -> str:
    """Why a guest cannot have ``name``: the account ``holder`` has it."""
    if name == holder:
        return f"{name!r} is a registered account"
    return f"{name!r} is the registered account {holder!r}: names are one whatever their case"


def _in_use(name: str, holder: str) -> str:
    """Why a guest without the token cannot have ``name``: ``holder`` uses it."""
    if name == holder:
        return f"the name {name!r} is in use; send its token to reclaim it"
    return (
        f"the name {name!r} is {holder!r}, which is in use (names are one whatever "
        "their case); send its token to reclaim it"
    )
