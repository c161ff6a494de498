"""People's account endpoints: signing up, in and out, who is signed in, the password.

| path | answer |
| --- | --- |
| ``POST /api/signup`` ``{"name", "password"}`` | 201 ``{"name"}``, signed in |
| ``POST /api/login`` ``{"name", "password"}`` | 200 ``{"name"}``, signed in |
| ``POST /api/logout`` | 200: the session is over |
| ``GET /api/session`` | ``{"name": …}`` of the account signed in, else ``{"name": null}`` |
| ``POST /api/account/password`` ``{"password", "new_password"}`` | 200: the new password |

Signing in sets the session cookie (see :mod:`.sessions`). A client that is no browser
adds ``"session": "token"`` and is given the session's secret in the answer instead
(``"token"``), to send as the ``hello``'s token and as ``Authorization: Bearer``. A bot
proves itself to set a password with its token as a bearer (``"name"`` in the body,
no current password). No answer ever holds a password. Errors come back as
``{"error": code, "message": sentence}``.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from gamut_server import keys
from gamut_server.ladder_live.http import (
    LADDER,
    attempt,
    bearer_token,
    check_registration_allowance,
    http_error,
    json_body,
    sign_in_refusal,
)
from gamut_server.people.accounts import (
    AccountBook,
    AccountNameError,
    AccountTakenError,
    PasswordRefusedError,
    SignInError,
)
from gamut_server.people.hashing import HashingBusyError
from gamut_server.people.sessions import (
    clear_cookie,
    cookie_secret,
    is_session_secret,
    served_securely,
    set_cookie,
)
from gamut_server.storage import Account


def add_account_routes(app: web.Application) -> None:
    """Register the account endpoints on ``app``."""
    app.router.add_post("/api/signup", sign_up)
    app.router.add_post("/api/login", log_in)
    app.router.add_post("/api/logout", log_out)
    app.router.add_get("/api/session", session)
    app.router.add_post("/api/account/password", change_password)


async def sign_up(request: web.Request) -> web.Response:
    """Make an account with a password, and sign in to it."""
    check_registration_allowance(request)
    name, password, body = await _credentials(request)
    try:
        account = await _book(request).create(name, password=password)
    except (AccountNameError, PasswordRefusedError) as refusal:
        raise http_error(web.HTTPBadRequest, "bad_name", str(refusal)) from None
    except AccountTakenError as refusal:
        raise http_error(web.HTTPConflict, "name_taken", str(refusal)) from None
    except HashingBusyError as busy:
        raise http_error(web.HTTPServiceUnavailable, "unavailable", str(busy)) from None
    message = f"welcome, {account.name}: your account is made and you are signed in"
    return await _signed_in(request, account, body, message, status=201)


async def log_in(request: web.Request) -> web.Response:
    """Sign in with a name and its password."""
    name, password, body = await _credentials(request)
    banned = request.app[keys.HUB].safety.banned_refusal(name)
    if banned is not None:
        answer = json.dumps({"error": "banned", "message": banned})
        raise web.HTTPForbidden(text=answer, content_type="application/json")
    try:
        account = await _book(request).sign_in(name, password, attempt(request))
    except SignInError as refusal:
        raise sign_in_refusal(refusal) from None
    return await _signed_in(request, account, body, f"signed in as {account.name}")


async def log_out(request: web.Request) -> web.Response:
    """End the session of the cookie or of the bearer."""
    secret = _session_secret(request)
    if secret is not None:
        await _book(request).sessions.end(secret)
    response = web.json_response({"signed_in": False, "message": "signed out"})
    clear_cookie(response, secure=_secure(request))
    return response


async def session(request: web.Request) -> web.Response:
    """The name of the account this request is signed in to, if any."""
    account = await signed_in_account(request)
    return web.json_response({"name": None if account is None else account.name})


async def change_password(request: web.Request) -> web.Response:
    """Give an account a new password: proved by a session and the current password,
    or by a bot's token. Every other session of the account is signed out, and every
    connection signed in to it is closed (a client whose session is still good signs in
    again as it reconnects)."""
    body = await json_body(request)
    new_password = _text(body, "new_password")
    book = _book(request)
    account = await _proved_account(request, body)
    try:
        await book.set_password(account, new_password)
    except PasswordRefusedError as refusal:
        raise http_error(web.HTTPBadRequest, "bad_password", str(refusal)) from None
    except HashingBusyError as busy:
        raise http_error(web.HTTPServiceUnavailable, "unavailable", str(busy)) from None
    message = f"the password of {account.name} is changed; other sessions are signed out"
    why = f"the password of {account.name!r} was changed"
    request.app[LADDER].registry.on_token_withdrawn(account.name, why)
    return await _signed_in(request, account, body, message)


async def signed_in_account(request: web.Request) -> Account | None:
    """The account the request's session cookie (or bearer session secret) signs in to."""
    secret = _session_secret(request)
    if secret is None:
        return None
    return await _book(request).sessions.account(secret)


async def _proved_account(request: web.Request, body: dict[str, Any]) -> Account:
    """The account a password change is for: a session's, proved again by its current
    password, or the named bot's, proved by its token as a bearer."""
    book = _book(request)
    bearer = request.headers.get("Authorization", "")
    if bearer and not is_session_secret(bearer.partition(" ")[2].strip()):
        name = _text(body, "name")
        found = await book.store.account(name)
        if found is None:
            raise http_error(web.HTTPNotFound, "unknown_account", f"no account is called {name!r}")
        try:
            await book.check_token(found, bearer_token(request), attempt(request))
        except SignInError as refusal:
            raise sign_in_refusal(refusal) from None
        return found
    account = await signed_in_account(request)
    if account is None:
        raise http_error(
            web.HTTPUnauthorized, "not_authenticated", "sign in first to change your password"
        )
    try:
        return await book.sign_in(account.name, _text(body, "password"), attempt(request))
    except SignInError as refusal:
        raise sign_in_refusal(refusal) from None


async def _signed_in(
    request: web.Request,
    account: Account,
    body: dict[str, Any],
    message: str,
    *,
    status: int = 200,
) -> web.Response:
    """The answer that opens a session for ``account``: a cookie, or for a client that
    asked for one, the session's secret."""
    secret = await _book(request).sessions.open(account)
    answer: dict[str, Any] = {"name": account.name, "message": message}
    if body.get("session") == "token":
        answer["token"] = secret
        return web.json_response(answer, status=status)
    response = web.json_response(answer, status=status)
    set_cookie(response, secret, secure=_secure(request))
    return response


async def _credentials(request: web.Request) -> tuple[str, str, dict[str, Any]]:
    """The body's ``name`` and ``password``, and the body."""
    body = await json_body(request)
    return _text(body, "name"), _text(body, "password"), body


def _text(body: dict[str, Any], field: str) -> str:
    """A text field of the body (400 without it)."""
    value = body.get(field)
    if not isinstance(value, str) or not value:
        raise http_error(web.HTTPBadRequest, "bad_request", f'send "{field}" as a text')
    return value


def _session_secret(request: web.Request) -> str | None:
    """The session secret of the request: its cookie's, else its bearer's."""
    secret = cookie_secret(request)
    if secret is not None:
        return secret
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and is_session_secret(token) else None


def _book(request: web.Request) -> AccountBook:
    """The application's accounts."""
    return request.app[keys.HUB].accounts


def _secure(request: web.Request) -> bool:
    """Whether cookies for this request must be ``Secure``."""
    return served_securely(request, request.app[keys.CONFIG].trusted_proxies)
