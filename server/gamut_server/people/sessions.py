"""Sign-in sessions: a random secret, kept by the database only as its SHA-256.

Signing in with a password opens a session. The browser holds its secret in a cookie
the page's scripts cannot read (``HttpOnly``, ``SameSite=Lax``, ``Secure`` when the
page is served over TLS, directly or behind a trusted proxy that says so); the
WebSocket signs in from that cookie. Other clients (``gamut login``) ask for the secret
itself and send it as the ``hello``'s token. Sessions live in the database, so they
survive a restart and work on every node of a cluster; signing out ends one, and
changing the password ends every other.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from typing import Final
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler

from gamut_server.storage import Account, Store

COOKIE: Final = "gamut_session"
"""The session cookie's name."""

PREFIX: Final = "session_"
"""Every session secret starts with this (a bot's token starts with ``gamut_``)."""

SECRET_BYTES: Final = 32
"""Random bytes in a session secret."""

LIFETIME: Final = timedelta(days=30)
"""How long a session lasts."""

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing."""


def is_session_secret(token: str) -> bool:
    """Whether ``token`` is a session's secret (rather than a bot's token)."""
    return token.startswith(PREFIX)


def secret_hash(secret: str) -> str:
    """What the database keeps of a session's secret."""
    return hashlib.sha256(secret.encode()).hexdigest()


class Sessions:
    """Opening, reading and ending sessions in the store."""

    def __init__(self, store: Store) -> None:
        """Sessions kept in ``store``."""
        self.store = store

    async def open(self, account: Account) -> str:
        """A new session for ``account``: its secret, handed to the client once."""
        secret = PREFIX + secrets.token_urlsafe(SECRET_BYTES)
        await self.store.add_session(secret_hash(secret), account.id, datetime.now(UTC) + LIFETIME)
        return secret

    async def account(self, secret: str) -> Account | None:
        """The account the live session ``secret`` signs in, or ``None``."""
        if not is_session_secret(secret):
            return None
        return await self.store.session_account(secret_hash(secret))

    async def end(self, secret: str) -> None:
        """Sign the session ``secret`` out."""
        await self.store.end_session(secret_hash(secret))

    async def end_all(self, account: Account) -> int:
        """Sign every session of ``account`` out; how many there were."""
        return await self.store.end_account_sessions(account.id)


def served_securely(request: web.BaseRequest, trusted_proxies: Collection[str]) -> bool:
    """Whether the page was reached over TLS: directly, or through a trusted proxy whose
    ``X-Forwarded-Proto`` says ``https``."""
    if request.secure:
        return True
    if (request.remote or "") not in trusted_proxies:
        return False
    forwarded = request.headers.get("X-Forwarded-Proto", "").split(",")[0].strip().lower()
    return forwarded == "https"


def set_cookie(response: web.StreamResponse, secret: str, *, secure: bool) -> None:
    """Give the browser the session cookie."""
    response.set_cookie(
        COOKIE,
        secret,
        max_age=int(LIFETIME.total_seconds()),
        path="/",
        httponly=True,
        samesite="Lax",
        secure=secure,
    )


def clear_cookie(response: web.StreamResponse, *, secure: bool) -> None:
    """Make the browser forget the session cookie."""
    response.del_cookie(COOKIE, path="/", httponly=True, samesite="Lax", secure=secure)


def cookie_secret(request: web.BaseRequest) -> str | None:
    """The session secret of the request's cookie, if it is one and came from this site."""
    secret = request.cookies.get(COOKIE)
    if not secret or not is_session_secret(secret) or cross_site(request):
        return None
    return secret


CROSS_SITE: Final = (
    "this request came from another site's page: Gamut changes nothing on behalf of "
    "another site (open Gamut's own page and try there)"
)
"""Why a cross-site request that would change something is refused."""


@web.middleware
async def refuse_cross_site(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuse (403) a request that would change something and comes from another site's
    page, so that a session cookie cannot be used by another site."""
    if request.method not in SAFE_METHODS and cross_site(request):
        body = json.dumps({"error": "cross_site", "message": CROSS_SITE})
        raise web.HTTPForbidden(text=body, content_type="application/json")
    return await handler(request)


def cross_site(request: web.BaseRequest) -> bool:
    """Whether a browser sent ``request`` on behalf of another site's page: its ``Origin``
    is another host, or (without one) ``Sec-Fetch-Site`` says it is not this one's."""
    origin = request.headers.get("Origin")
    if origin is not None:
        return urlsplit(origin).netloc.lower() != request.host.lower()
    fetch_site = request.headers.get("Sec-Fetch-Site")
    return fetch_site is not None and fetch_site not in ("same-origin", "none")
