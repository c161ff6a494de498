"""The analysis endpoints.

| path | answer |
| --- | --- |
| ``POST /api/games/{id}/analysis`` | 202 and its progress; 200 and the analysis if done |
| ``GET /api/games/{id}/analysis`` | its progress, then ``{"status": "done", "plies": [...], …}`` |

A request may come from an account: a person's session, or a bot's ``Authorization:
Bearer TOKEN`` with the body ``{"account": NAME}``; its new analyses then count against
the account's allowance as well as the address's. Refusals come back as
``{"error": code, "message": sentence}``.
"""

from __future__ import annotations

import json
from typing import Final

from aiohttp import web

from gamut_server import keys
from gamut_server.analyses.service import AnalysisRefusedError, AnalysisService
from gamut_server.edge.addresses import client_address
from gamut_server.ladder_live.http import LADDER, attempt
from gamut_server.ladder_live.registry import SignInError, UnknownAccountError
from gamut_server.people.http import signed_in_account
from gamut_server.people.sessions import is_session_secret
from gamut_server.storage import GameNotFoundError

ANALYSES: Final = web.AppKey("analyses", AnalysisService)
"""The application's analysis service."""


def add_analysis_routes(app: web.Application) -> None:
    """Register the analysis endpoints on ``app``."""
    app.router.add_post("/api/games/{game_id}/analysis", ask)
    app.router.add_get("/api/games/{game_id}/analysis", answer)


async def ask(request: web.Request) -> web.Response:
    """Start the analysis of a finished game (or report the one there is)."""
    game_id = request.match_info["game_id"]
    address = client_address(request, request.app[keys.CONFIG].trusted_proxies)
    account = await _account(request)
    try:
        status, body = await request.app[ANALYSES].ask(game_id, address, account)
    except AnalysisRefusedError as refusal:
        raise _error(refusal.status, refusal.code, refusal.message) from None
    return web.json_response(body, status=status)


async def answer(request: web.Request) -> web.Response:
    """A game's analysis, or how far it has got."""
    game_id = request.match_info["game_id"]
    body = await request.app[ANALYSES].answer(game_id)
    if body is None:
        try:
            await request.app[keys.STORE].game_info(game_id)
        except GameNotFoundError:
            raise _error(404, "unknown_game_id", f"no game has the id {game_id!r}") from None
        sentence = (
            f"game {game_id} has not been analysed: POST /api/games/{game_id}/analysis "
            "to ask for it"
        )
        raise _error(404, "no_analysis", sentence)
    return web.json_response(body)


async def _account(request: web.Request) -> str | None:
    """The account a request comes from: a person's session (its cookie, or its secret as
    a bearer), or a bot proved by its token; ``None`` if it is signed with neither."""
    header = request.headers.get("Authorization")
    if header is None or is_session_secret(header.partition(" ")[2].strip()):
        account = await signed_in_account(request)
        return None if account is None else account.name
    scheme, _, token = header.partition(" ")
    name = (await _body(request)).get("account")
    if scheme.lower() != "bearer" or not token.strip() or not isinstance(name, str):
        raise _error(
            401, "bad_token", 'sign with Authorization: Bearer TOKEN and {"account": NAME}'
        )
    try:
        account = await request.app[LADDER].registry.prove(name, token.strip(), attempt(request))
    except (UnknownAccountError, SignInError) as refusal:
        raise _error(401, "bad_token", str(refusal)) from None
    return account.name


async def _body(request: web.Request) -> dict[str, object]:
    """The request's JSON object, or an empty one without a body (400 if it is not one)."""
    if not request.can_read_body:
        return {}
    try:
        body = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise _error(400, "bad_request", "the body must be a JSON object")
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


def _error(status: int, code: str, sentence: str) -> web.HTTPException:
    """An HTTP error with the JSON body the API uses."""
    body = json.dumps({"error": code, "message": sentence})
    return ERRORS[status](text=body, content_type="application/json")
