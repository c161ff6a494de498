"""The HTTP JSON endpoints: health, the games, live rooms, finished games and records.

| path | answer |
| --- | --- |
| ``GET /health`` | ``{"status": "ok", …}`` with connection, room and AI counts |
| ``GET /metrics`` | Prometheus' text format, to clients on the server's machine only (else 404) |
| ``GET /api/games`` | every hosted game with its options and notation |
| ``GET /api/rooms`` | the live rooms, as the lobby lists them (``?game=`` filters) |
| ``GET /api/games/finished`` | finished games, paged: ``game``, ``player``, ``limit``, ``offset`` |
| ``GET /api/games/{id}`` | one game's record: its players, result, clocks and moves |
| ``GET /api/games/{id}/export`` | one game as export text (``text/plain``) |
| ``GET /api/games/{id}/replay`` | its descriptor, first board, each move's changes, result |

Errors come back as ``{"error": code, "message": sentence}`` with a 4xx status.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import datetime
from typing import Any, Final

from aiohttp import web

from gamut_protocol import PROTOCOL_VERSION
from gamut_server import keys
from gamut_server.config import SERVER_NAME
from gamut_server.core.hub import Hub
from gamut_server.edge.addresses import client_address
from gamut_server.edge.replay import replay_json
from gamut_server.metrics import CONTENT_TYPE, is_local
from gamut_server.monitor import rss_bytes
from gamut_server.rooms.catalog import game_infos
from gamut_server.storage import GameInfo, GameNotFoundError, GameRecord, MoveRecord, Player

MAX_PAGE: Final = 100
"""The largest page of finished games one request may ask for."""


def add_routes(app: web.Application) -> None:
    """Register every endpoint on ``app`` (the finished list before ``{id}``)."""
    app.router.add_get("/health", health)
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/api/games", games)
    app.router.add_get("/api/rooms", rooms)
    app.router.add_get("/api/games/finished", finished)
    app.router.add_get("/api/games/{game_id}", record)
    app.router.add_get("/api/games/{game_id}/export", export)
    app.router.add_get("/api/games/{game_id}/replay", replay)


async def health(request: web.Request) -> web.Response:
    """The server is up: its name, protocol and load."""
    hub = request.app[keys.HUB]
    body: dict[str, Any] = {"status": "ok", "server": SERVER_NAME, "protocol": PROTOCOL_VERSION}
    body |= hub.stats()
    body |= request.app[keys.MONITOR].stats()
    body["rss_bytes"] = rss_bytes()
    body["cpu_seconds"] = round(time.process_time(), 3)
    return web.json_response(body)


async def metrics(request: web.Request) -> web.Response:
    """Prometheus' text format, for clients on the server's own machine; 404 to others."""
    config = request.app[keys.CONFIG]
    if not is_local(client_address(request, config.trusted_proxies)):
        raise web.HTTPNotFound()
    return await metrics_answer(request.app[keys.HUB])


async def metrics_answer(hub: Hub) -> web.Response:
    """The hub's metrics in Prometheus' text format (the open reports counted now)."""
    hub.open_reports = await hub.store.open_reports()
    return web.Response(body=hub.metrics.text(), headers={"Content-Type": CONTENT_TYPE})


async def games(request: web.Request) -> web.Response:
    """Every hosted game."""
    return web.json_response([info.model_dump(mode="json") for info in game_infos()])


async def rooms(request: web.Request) -> web.Response:
    """The live rooms, optionally of one game."""
    game = request.query.get("game") or None
    summaries = await request.app[keys.HUB].live_rooms(game)
    return web.json_response([summary.model_dump(mode="json") for summary in summaries])


async def finished(request: web.Request) -> web.Response:
    """A page of finished games, newest first."""
    limit = int_query(request, "limit", 20, 1, MAX_PAGE)
    offset = int_query(request, "offset", 0, 0, 10**9)
    page = await request.app[keys.STORE].finished_games(
        game=request.query.get("game") or None,
        player=request.query.get("player") or None,
        limit=limit,
        offset=offset,
    )
    body = {
        "games": [info_json(info) for info in page.games],
        "total": page.total,
        "offset": page.offset,
        "limit": page.limit,
    }
    return web.json_response(body)


async def record(request: web.Request) -> web.Response:
    """One game's full record."""
    return web.json_response(record_json(await _stored(request)))


async def export(request: web.Request) -> web.Response:
    """One game as export text."""
    game_id = request.match_info["game_id"]
    try:
        text = await request.app[keys.STORE].export_game(game_id)
    except GameNotFoundError:
        raise _not_found(game_id) from None
    return web.Response(text=text, content_type="text/plain")


async def replay(request: web.Request) -> web.Response:
    """One game with what each move changed, for a viewer without the engine."""
    stored = await _stored(request)
    # Replaying a long game on a big board takes milliseconds: keep them off the event loop.
    return web.json_response(await asyncio.to_thread(replay_json, stored))


async def _stored(request: web.Request) -> GameRecord:
    """The game the path names (404 if there is none)."""
    game_id = request.match_info["game_id"]
    try:
        return await request.app[keys.STORE].game(game_id)
    except GameNotFoundError:
        raise _not_found(game_id) from None


def record_json(stored: GameRecord) -> dict[str, Any]:
    """A game record as JSON: its row and its moves."""
    return info_json(stored.info) | {"moves": [move_json(move) for move in stored.moves]}


def info_json(info: GameInfo) -> dict[str, Any]:
    """One stored game without its moves, as JSON."""
    result = info.result
    return {
        "id": info.id,
        "game": info.game,
        "options": dict(info.options),
        "time_control": dict(info.time_control),
        "players": [_player_json(player) for player in info.players],
        "rated": info.rated,
        "status": info.status,
        "result": None
        if result is None
        else {"winner": result.winner, "reason": result.reason, "line": list(result.line)},
        "plies": info.plies,
        "created_at": _time(info.created_at),
        "started_at": _time(info.started_at),
        "finished_at": _time(info.finished_at),
    }


def move_json(move: MoveRecord) -> dict[str, Any]:
    """One stored move as JSON."""
    remaining = move.clock.remaining_ms
    return {
        "ply": move.ply,
        "move": move.move,
        "side": move.side,
        "think_ms": move.think_ms,
        "clocks": None if remaining is None else list(remaining),
        "at": _time(move.at),
    }


def _player_json(player: Player | None) -> dict[str, Any] | None:
    """One seat as JSON."""
    return None if player is None else {"name": player.name, "kind": player.kind}


def _time(moment: datetime | None) -> str | None:
    """An ISO 8601 timestamp, or ``None``."""
    return None if moment is None else moment.isoformat()


def int_query(request: web.Request, name: str, default: int, low: int, high: int) -> int:
    """An integer query parameter within ``[low, high]``; a bad one answers 400."""
    text = request.query.get(name)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise _bad_request(f"{name} must be an integer from {low} to {high}")
    return value


def _not_found(game_id: str) -> web.HTTPNotFound:
    """A 404 naming the missing game."""
    return web.HTTPNotFound(
        text=_error_text("unknown_game_id", f"no game has the id {game_id!r}"),
        content_type="application/json",
    )


def _bad_request(sentence: str) -> web.HTTPBadRequest:
    """A 400 with a sentence."""
    return web.HTTPBadRequest(
        text=_error_text("bad_request", sentence), content_type="application/json"
    )


def _error_text(code: str, sentence: str) -> str:
    """The JSON body of an HTTP error."""
    return json.dumps({"error": code, "message": sentence})
