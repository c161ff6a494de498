"""Who an HTTP API request comes from, its JSON body, and the API's refusals.

A request may come from an account: a person's session (its cookie, or its secret as a
bearer), or a bot's ``Authorization: Bearer TOKEN`` with the body ``{"account": NAME}``.
Refusals come back as ``{"error": code, "message": sentence}`` with a 4xx status.
"""

from __future__ import annotations

import json
from typing import Final

from aiohttp import web

from gamut_protocol import ClientKind
from gamut_server.ladder_live.http import LADDER, attempt
from gamut_server.ladder_live.registry import SignInError, UnknownAccountError
from gamut_server.people.http import signed_in_account
from gamut_server.people.sessions import is_session_secret
from gamut_server.storage import Account


async def request_account(request: web.Request) -> tuple[Account, ClientKind] | None:
    """The account a request comes from and how it plays (``human`` for a person's
    session, ``bot`` for a token); ``None`` if it is signed with neither, 401 for a bad
    token."""
    header = request.headers.get("Authorization")
    if header is None or is_session_secret(header.partition(" ")[2].strip()):
        account = await signed_in_account(request)
        return None if account is None else (account, "human")
    scheme, _, token = header.partition(" ")
    name = (await json_body(request)).get("account")
    if scheme.lower() != "bearer" or not token.strip() or not isinstance(name, str):
        raise api_error(
            401, "bad_token", 'sign with Authorization: Bearer TOKEN and {"account": NAME}'
        )
    try:
        account = await request.app[LADDER].registry.prove(name, token.strip(), attempt(request))
    except (UnknownAccountError, SignInError) as refusal:
        raise api_error(401, "bad_token", str(refusal)) from None
    return account, "bot"


async def json_body(request: web.Request) -> dict[str, object]:
    """The request's JSON object, or an empty one without a body (400 if it is not one);
    it may be read more than once."""
    if not request.body_exists:
        return {}
    try:
        body = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise api_error(400, "bad_request", "the body must be a JSON object")
    return body


ERRORS: Final[dict[int, type[web.HTTPException]]] = {
    400: web.HTTPBadRequest,
    401: web.HTTPUnauthorized,
    404: web.HTTPNotFound,
    409: web.HTTPConflict,
    422: web.HTTPUnprocessableEntity,
    429: web.HTTPTooManyRequests,
    503: web.HTTPServiceUnavailable,
}
"""The error each status a refusal carries is answered with."""


def api_error(status: int, code: str, sentence: str) -> web.HTTPException:
    """An HTTP error with the JSON body the API uses."""
    body = json.dumps({"error": code, "message": sentence})
    return ERRORS[status](text=body, content_type="application/json")
