"""The ladder's HTTP JSON endpoints: accounts, pools, standings and crosstables.

| path | answer |
| --- | --- |
| ``POST /api/accounts`` ``{"name": …}`` | 201 ``{"name", "token"}``: the token, shown this once |
| ``POST /api/accounts/{name}/token`` | a new token; the old one (sent as a bearer) stops working |
| ``DELETE /api/accounts/{name}/token`` | the token (sent as a bearer) is revoked |
| ``GET /api/ladder/pools`` | every pool with its game, clocks, anchors and live figures |
| ``GET /api/ladder/{pool}/standings`` | rank, name, rating ± uncertainty, record, last seen |
| ``GET /api/ladder/{pool}/crosstable`` | each pair's wins, draws and losses |
| ``GET /api/ladder/{pool}/players/{name}/history`` | the rating before the first game, after each |

Errors come back as ``{"error": code, "message": sentence}`` with a 4xx status.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Final

from aiohttp import web

from gamut_server import keys
from gamut_server.edge.addresses import client_address
from gamut_server.ladder_live.service import LadderService
from gamut_server.ladder_live.views import (
    crosstable_json,
    history_json,
    standings_json,
)
from gamut_server.people.accounts import (
    AccountNameError,
    AccountTakenError,
    Attempt,
    SignInError,
    UnknownAccountError,
)
from gamut_server.people.hashing import HashingBusyError

LADDER: Final = web.AppKey("ladder", LadderService)
"""The application's ladder service."""


def add_ladder_routes(app: web.Application) -> None:
    """Register the ladder's endpoints on ``app``."""
    app.router.add_post("/api/accounts", register)
    app.router.add_post("/api/accounts/{name}/token", reissue)
    app.router.add_delete("/api/accounts/{name}/token", revoke)
    app.router.add_get("/api/ladder/pools", pools)
    app.router.add_get("/api/ladder/{pool}/standings", pool_standings)
    app.router.add_get("/api/ladder/{pool}/crosstable", pool_crosstable)
    app.router.add_get("/api/ladder/{pool}/players/{name}/history", player_history)


async def register(request: web.Request) -> web.Response:
    """Register a name; the answer carries its token, once (429 past the address's allowance)."""
    check_registration_allowance(request)
    body = await json_body(request)
    name = body.get("name")
    if not isinstance(name, str):
        raise http_error(web.HTTPBadRequest, "bad_request", 'send {"name": NAME}')
    registry = request.app[LADDER].registry
    try:
        token = await registry.register(name)
    except HashingBusyError as busy:
        raise http_error(web.HTTPServiceUnavailable, "unavailable", str(busy)) from None
    except AccountNameError as refusal:
        raise http_error(web.HTTPBadRequest, "bad_name", str(refusal)) from None
    except AccountTakenError as refusal:
        raise http_error(web.HTTPConflict, "name_taken", str(refusal)) from None
    message = "keep this token: it is shown once; say hello with it to sign in as " + name
    return web.json_response({"name": name, "token": token, "message": message}, status=201)


def attempt(request: web.Request) -> Attempt:
    """Where a sign-in by ``request`` comes from: the client's address, and now."""
    config = request.app[keys.CONFIG]
    now_ms = int(asyncio.get_running_loop().time() * 1000)
    return Attempt(client_address(request, config.trusted_proxies), now_ms)


def check_registration_allowance(request: web.Request) -> None:
    """Refuse with 429 a registration beyond what the client's address may register."""
    config, hub = request.app[keys.CONFIG], request.app[keys.HUB]
    address = client_address(request, config.trusted_proxies)
    now_ms = int(asyncio.get_running_loop().time() * 1000)
    if not hub.addresses.allow("registrations", address, now_ms):
        rate = config.addresses.registrations
        sentence = (
            f"too many accounts registered from your address: {rate.capacity:g} at once, "
            f"then one every {1 / rate.per_second:g} seconds"
        )
        sentence = hub.addresses.refused_sentence(sentence, address, now_ms)
        refusal = http_error(web.HTTPTooManyRequests, "rate_limited", sentence)
        refusal.force_close()
        raise refusal


async def reissue(request: web.Request) -> web.Response:
    """Replace an account's token with a new one, proved by the current one."""
    name, token = request.match_info["name"], bearer_token(request)
    registry = request.app[LADDER].registry
    try:
        new_token = await registry.reissue(name, token, attempt(request))
    except (UnknownAccountError, SignInError) as refusal:
        raise _refused(refusal) from None
    return web.json_response({"name": name, "token": new_token})


async def revoke(request: web.Request) -> web.Response:
    """Revoke an account's token, proved by itself."""
    name, token = request.match_info["name"], bearer_token(request)
    try:
        await request.app[LADDER].registry.revoke(name, token, attempt(request))
    except (UnknownAccountError, SignInError) as refusal:
        raise _refused(refusal) from None
    return web.json_response({"name": name, "revoked": True})


async def pools(request: web.Request) -> web.Response:
    """Every pool."""
    return web.json_response(await request.app[LADDER].pool_listing())


async def pool_standings(request: web.Request) -> web.Response:
    """One pool's standings."""
    ladder, state = _pool(request)
    return web.json_response(await standings_json(state, ladder.store, ladder.model))


async def pool_crosstable(request: web.Request) -> web.Response:
    """One pool's crosstable."""
    ladder, state = _pool(request)
    return web.json_response(await crosstable_json(state, ladder.store, ladder.model))


async def player_history(request: web.Request) -> web.Response:
    """One player's rating history in a pool (empty for a player who has not played)."""
    ladder, state = _pool(request)
    name = request.match_info["name"]
    return web.json_response(await history_json(state, ladder.store, ladder.model, name))


def _pool(request: web.Request) -> tuple[LadderService, Any]:
    """The ladder and the pool the path names (404 if none)."""
    ladder = request.app[LADDER]
    pool = request.match_info["pool"]
    state = ladder.pools.get(pool)
    if state is None:
        known = ", ".join(sorted(ladder.pools))
        raise http_error(web.HTTPNotFound, "unknown_pool", f"no pool {pool!r}; pools: {known}")
    return ladder, state


async def json_body(request: web.Request) -> dict[str, Any]:
    """The request's JSON object (400 if it is not one)."""
    try:
        body = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise http_error(web.HTTPBadRequest, "bad_request", "the body must be a JSON object")
    return body


def bearer_token(request: web.Request) -> str:
    """The token of an ``Authorization: Bearer`` header (401 without one)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise http_error(web.HTTPUnauthorized, "bad_token", "send Authorization: Bearer TOKEN")
    return token.strip()


def _refused(refusal: UnknownAccountError | SignInError) -> web.HTTPException:
    """404 for an unknown account, else the sign-in's refusal."""
    if isinstance(refusal, UnknownAccountError):
        return http_error(web.HTTPNotFound, "unknown_account", str(refusal))
    return sign_in_refusal(refusal)


def sign_in_refusal(refusal: SignInError) -> web.HTTPException:
    """A refused sign-in as HTTP: 429 for too many tries (closing the socket after it),
    503 for a full hashing pool, else 401."""
    kind: type[web.HTTPException] = web.HTTPUnauthorized
    if refusal.code == "rate_limited":
        kind = web.HTTPTooManyRequests
    elif refusal.code == "unavailable":
        kind = web.HTTPServiceUnavailable
    error = http_error(kind, refusal.code, refusal.message)
    if refusal.code == "rate_limited":
        error.force_close()  # its next request needs a new socket, which a cut-off refuses
    return error


def http_error(kind: type[web.HTTPException], code: str, sentence: str) -> web.HTTPException:
    """An HTTP error with the JSON body the API uses."""
    return kind(
        text=json.dumps({"error": code, "message": sentence}), content_type="application/json"
    )
