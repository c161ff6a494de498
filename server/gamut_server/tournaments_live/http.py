"""The tournaments' HTTP JSON endpoints.

| path | answer |
| --- | --- |
| ``GET /api/tournaments`` | ``{"upcoming": […], "running": […], "finished": […]}`` |
| ``GET /api/tournaments/{id}`` | one tournament: settings, entrants, standings, crosstable, games |
| ``POST /api/tournaments`` | 201 and the new tournament (an account's session or token) |
| ``POST /api/tournaments/{id}/start`` | its creator starts an upcoming one now |
| ``POST /api/tournaments/{id}/join`` | the account's ``tournament_status`` |
| ``POST /api/tournaments/{id}/leave`` | the same, withdrawn |

Refusals come back as ``{"error": code, "message": sentence}`` with a 4xx status.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any, Final

from aiohttp import web

from gamut_protocol import ClientKind, dump
from gamut_protocol.errors import NOT_AUTHENTICATED, UNAVAILABLE, UNKNOWN_TOURNAMENT
from gamut_server import keys
from gamut_server.people.signed_requests import api_error, json_body, request_account
from gamut_server.records.tournaments import TournamentRecord
from gamut_server.rooms import Who
from gamut_server.storage import Account, new_game_id
from gamut_server.tournaments.settings import (
    EntryRefusedError,
    TournamentRefusedError,
    new_tournament,
)
from gamut_server.tournaments.standings import standings
from gamut_server.tournaments_live.director import ends_at
from gamut_server.tournaments_live.service import TournamentService

TOURNAMENTS: Final = web.AppKey("tournaments", TournamentService)
"""The application's tournament service."""

STATUS_CODES: Final = {NOT_AUTHENTICATED: 401, UNKNOWN_TOURNAMENT: 404}
"""The HTTP status of each refusal's code (others are 409)."""


def add_tournament_routes(app: web.Application) -> None:
    """Register the tournaments' endpoints on ``app``."""
    app.router.add_get("/api/tournaments", listing)
    app.router.add_post("/api/tournaments", create)
    app.router.add_get("/api/tournaments/{tournament_id}", one)
    app.router.add_post("/api/tournaments/{tournament_id}/start", start)
    app.router.add_post("/api/tournaments/{tournament_id}/join", join)
    app.router.add_post("/api/tournaments/{tournament_id}/leave", leave)


async def listing(request: web.Request) -> web.Response:
    """Every tournament, upcoming (soonest first), running and finished (latest first)."""
    store = request.app[keys.STORE]
    found: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [], "finished": []}
    for record in await store.tournament_list():
        players = len([e for e in await store.tournament_entrants(record.id) if not e.withdrawn])
        found[record.status].append({**summary(record), "players": players})
    found["upcoming"].reverse()
    return web.json_response(found)


async def one(request: web.Request) -> web.Response:
    """One tournament with its entrants, standings, crosstable and games."""
    store = request.app[keys.STORE]
    tournament_id = request.match_info["tournament_id"]
    record = await store.tournament(tournament_id)
    if record is None:
        raise api_error(404, UNKNOWN_TOURNAMENT, f"no tournament has the id {tournament_id!r}")
    entrants = await store.tournament_entrants(record.id)
    games = await store.tournament_games(record.id)
    names = [entrant.name for entrant in entrants]
    lines = standings(record.kind, names, games)
    withdrawn = {entrant.name for entrant in entrants if entrant.withdrawn}
    body = {
        **summary(record),
        "players": len(names) - len(withdrawn),
        "entrants": [{"name": e.name, "kind": e.kind, "withdrawn": e.withdrawn} for e in entrants],
        "standings": [
            {
                "rank": rank,
                "name": line.name,
                "points": line.points,
                "games": line.games,
                "wins": line.wins,
                "draws": line.draws,
                "losses": line.losses,
                "withdrawn": line.name in withdrawn,
                "against": line.against,
            }
            for rank, line in enumerate(lines, 1)
        ],
        "games": [
            {
                "number": game.number,
                "round": game.round + 1,
                "first": game.first,
                "second": game.second,
                "game_id": game.game_id,
                "status": game.status,
                "winner": game.winner,
                "reason": game.reason,
            }
            for game in games
        ],
    }
    return web.json_response(body)


async def create(request: web.Request) -> web.Response:
    """Create a tournament for the signed-in account."""
    signed = await _signed(request)
    service = request.app[TOURNAMENTS]
    try:
        settings = new_tournament(await _body(request), service.wall())
    except TournamentRefusedError as refusal:
        raise api_error(422, "bad_tournament", str(refusal)) from None
    record = TournamentRecord(
        id=new_game_id(),
        **asdict(settings),
        status="upcoming",
        created_by=signed[0].name,
        created_at=service.wall(),
    )
    await request.app[keys.STORE].create_tournament(record)
    service.look()
    return web.json_response({**summary(record), "players": 0}, status=201)


async def start(request: web.Request) -> web.Response:
    """Its creator starts an upcoming tournament now rather than at its time."""
    account, _ = await _signed(request)
    store = request.app[keys.STORE]
    service = request.app[TOURNAMENTS]
    tournament_id = request.match_info["tournament_id"]
    record = await store.tournament(tournament_id)
    if record is None:
        raise api_error(404, UNKNOWN_TOURNAMENT, f"no tournament has the id {tournament_id!r}")
    if record.created_by != account.name:
        raise api_error(409, UNAVAILABLE, f"only {record.created_by} may start {record.name}")
    if record.status != "upcoming":
        raise api_error(409, UNAVAILABLE, f"{record.name} has started already")
    await store.move_tournament_start(record.id, service.wall())
    service.look()
    return web.json_response(
        {**summary(replace(record, starts_at=service.wall())), "players": None}
    )


async def join(request: web.Request) -> web.Response:
    """Enter the signed-in account in the tournament."""
    account, kind = await _signed(request)
    who = Who(conn=0, name=account.name, kind=kind, account=account.id)
    try:
        status = await request.app[TOURNAMENTS].enter(
            request.match_info["tournament_id"], who, kind
        )
    except EntryRefusedError as refusal:
        raise api_error(
            STATUS_CODES.get(refusal.code, 409), refusal.code, refusal.message
        ) from None
    return web.json_response(text=dump(status))


async def leave(request: web.Request) -> web.Response:
    """Withdraw the signed-in account from the tournament."""
    account, kind = await _signed(request)
    who = Who(conn=0, name=account.name, kind=kind, account=account.id)
    try:
        status = await request.app[TOURNAMENTS].withdraw(request.match_info["tournament_id"], who)
    except EntryRefusedError as refusal:
        raise api_error(
            STATUS_CODES.get(refusal.code, 409), refusal.code, refusal.message
        ) from None
    return web.json_response(text=dump(status))


def summary(record: TournamentRecord) -> dict[str, Any]:
    """A tournament's settings and where it stands, as the API shows them."""
    end = ends_at(record)
    return {
        "id": record.id,
        "name": record.name,
        "game": record.game,
        "options": record.options,
        "time_control": record.time_control,
        "kind": record.kind,
        "rated": record.rated,
        "entry": record.entry,
        "status": record.status,
        "starts_at": record.starts_at.isoformat(),
        "ends_at": None if end is None else end.isoformat(),
        "minutes": record.minutes,
        "rounds": record.rounds,
        "created_by": record.created_by,
        "openings": len(record.openings or []),
    }


async def _signed(request: web.Request) -> tuple[Account, ClientKind]:
    signed = await request_account(request)
    if signed is None:
        raise api_error(
            401, NOT_AUTHENTICATED, "sign in first: a person's session, or a bot's token"
        )
    return signed


async def _body(request: web.Request) -> dict[str, Any]:
    return dict(await json_body(request))
