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

from typing import Final

from aiohttp import web

from gamut_server import keys
from gamut_server.analyses.service import AnalysisRefusedError, AnalysisService
from gamut_server.edge.addresses import client_address
from gamut_server.people.signed_requests import api_error, request_account
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
    """The name of the account a request comes from, if it is signed."""
    signed = await request_account(request)
    return None if signed is None else signed[0].name


_error = api_error
