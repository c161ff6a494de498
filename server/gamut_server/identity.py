"""Who may use which name: guest names held by a token while their player is around.

A guest's first ``hello`` under a free name binds the name to a token: the one the
``hello`` carried, or a fresh one sent back in ``welcome``. Later connections under
that name (a second terminal, or a reconnection after a drop) must show the token.
The name stays bound while a connection uses it or while its player holds a seat in
an unfinished game, so nobody can take a dropped player's seat during the grace
period. After a server restart no name is bound, so a returning player's token binds
it again.
"""

from __future__ import annotations

import hmac
import re
import secrets
from dataclasses import dataclass, field
from typing import Final

from gamut_protocol.errors import BAD_TOKEN, NAME_TAKEN, ErrorCode

RESERVED_NAME: Final = re.compile(r"^ai(-\d+)?$", re.IGNORECASE)
"""Names kept for the server's own AI (``ai-3``)."""

TOKEN_BYTES: Final = 24
"""Random bytes in a guest token."""


class NameRefusedError(ValueError):
    """A ``hello`` may not use this name; ``code`` is the error code to answer with."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        """``name_taken`` or ``bad_token``."""
        self.message = message
        """Why, for people."""


@dataclass(slots=True)
class _Claim:
    """One bound name: its token and the connections using it."""

    token: str
    connections: set[int] = field(default_factory=set)


class Names:
    """The bound names of a running server."""

    def __init__(self) -> None:
        """No name bound."""
        self._claims: dict[str, _Claim] = {}

    def __contains__(self, name: str) -> bool:
        return name in self._claims

    def claim(self, name: str, token: str | None, connection: int) -> str:
        """Bind ``name`` to ``connection``; returns the name's token.

        Raises :class:`NameRefusedError` for a reserved name, or a bound one whose token
        ``token`` is not.
        """
        if RESERVED_NAME.match(name):
            raise NameRefusedError(NAME_TAKEN, f"the name {name!r} belongs to the server's AI")
        claim = self._claims.get(name)
        if claim is None:
            claim = _Claim(token or secrets.token_urlsafe(TOKEN_BYTES))
            self._claims[name] = claim
        elif token is None:
            raise NameRefusedError(
                NAME_TAKEN, f"the name {name!r} is in use; send its token to reclaim it"
            )
        elif not hmac.compare_digest(token.encode(), claim.token.encode()):
            raise NameRefusedError(BAD_TOKEN, f"that is not the token of {name!r}")
        claim.connections.add(connection)
        return claim.token

    def claim_account(self, name: str, token: str, connection: int) -> None:
        """Bind an account's ``name`` to ``connection``: the token was verified against the
        account, so it replaces whatever token the name was bound to."""
        claim = self._claims.setdefault(name, _Claim(token))
        claim.token = token
        claim.connections.add(connection)

    def release(self, name: str, connection: int, *, keep: bool) -> None:
        """``connection`` stopped using ``name``; with no other and not ``keep``, free it."""
        claim = self._claims.get(name)
        if claim is None:
            return
        claim.connections.discard(connection)
        if not claim.connections and not keep:
            del self._claims[name]

    def online(self, name: str) -> bool:
        """Whether a connection uses ``name`` now."""
        claim = self._claims.get(name)
        return claim is not None and bool(claim.connections)

    def forget_idle(self, name: str) -> None:
        """Free ``name`` if no connection uses it (its last unfinished game ended)."""
        claim = self._claims.get(name)
        if claim is not None and not claim.connections:
            del self._claims[name]
