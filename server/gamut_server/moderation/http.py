"""The moderators' HTTP API, ``/api/mod/...``: the same actions as ``gamut mod``, for an
account with the moderator's role, signed in by its session (the ``/mod`` page's
cookie, or a bearer session secret).

| request | answer |
| --- | --- |
| ``GET /api/mod/reports`` (``?all=1``: closed ones too) | ``{"reports": [...]}`` |
| ``POST /api/mod/reports/{id}/close`` ``{"reason"}`` | ``{"message"}`` |
| ``GET /api/mod/players/{name}`` | their sanctions, reports, games, room chat, log, presence |
| ``POST /api/mod/{action}`` ``{"name" or "network", "reason", "for"}`` | ``{"message"}`` |
| ``POST /api/mod/abort`` ``{"room_id", "reason"}`` | ``{"message"}``: the game ends aborted |
| ``POST /api/mod/remove-line`` ``{"room_id", "seq", "reason"}`` (or ``author``, ``text``) | ok |
| ``GET /api/mod/log`` (``?limit=``) | ``{"entries": [...]}`` |

``{action}`` is ``ban``, ``unban``, ``mute``, ``unmute``, ``ban-address``,
``unban-address``, ``take-name`` (a guest taken off a name, which guests may not use
for ``for``, a day if not given) or ``release-name``; ``for`` is optional (``7d``).
Without a session: 401; a session of an account that does not moderate: 403. Every
action goes into the audit log under the moderator's name, and this server applies it at
once (the others within a second).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Final

from aiohttp import web

from gamut_server import keys
from gamut_server.core.ops import RemoveLine, RemoveLobbyLine, Stop
from gamut_server.ladder_live.http import http_error, json_body
from gamut_server.moderation.actions import TAKE_NAME_FOR, ActionError, Moderation
from gamut_server.moderation.rules import parse_duration
from gamut_server.moderation.views import audit_json, report_json, sanction_json
from gamut_server.moderation.watch import SanctionWatch
from gamut_server.people.http import signed_in_account
from gamut_server.records.games import GameInfo
from gamut_server.records.moderation import SanctionKind

SANCTIONS: web.AppKey[SanctionWatch] = web.AppKey("sanctions", SanctionWatch)
"""The watch keeping the sanctions in force in step with the store."""

_TAKE: Final = {"ban": "ban", "mute": "mute", "ban-address": "address", "take-name": "name"}
_LIFT: Final[dict[str, SanctionKind]] = {
    "unban": "ban",
    "unmute": "mute",
    "unban-address": "address",
    "release-name": "name",
}


def add_moderation_routes(app: web.Application) -> None:
    """Register the moderators' endpoints."""
    app.router.add_get("/api/mod/reports", reports)
    app.router.add_post("/api/mod/reports/{report_id:\\d+}/close", close_report)
    app.router.add_get("/api/mod/players/{name}", player)
    app.router.add_get("/api/mod/log", log)
    app.router.add_post("/api/mod/abort", abort_room)
    app.router.add_post("/api/mod/remove-line", remove_line)
    app.router.add_post("/api/mod/{action}", act)


async def moderator(request: web.Request) -> str:
    """The name of the moderator making ``request``; 401 or 403 otherwise."""
    account = await signed_in_account(request)
    if account is None:
        raise http_error(web.HTTPUnauthorized, "not_signed_in", "sign in as a moderator first")
    if not await request.app[keys.STORE].is_moderator(account.id):
        raise http_error(web.HTTPForbidden, "not_a_moderator", f"{account.name} does not moderate")
    return account.name


async def reports(request: web.Request) -> web.Response:
    """The open reports, oldest first (or every report, newest first)."""
    await moderator(request)
    every = request.query.get("all") in ("1", "true")
    found = await request.app[keys.STORE].reports(open_only=not every)
    return web.json_response({"reports": [report_json(report) for report in found]})


async def close_report(request: web.Request) -> web.Response:
    """Close a report with what was done."""
    actor = await moderator(request)
    body = await json_body(request)
    report_id = int(request.match_info["report_id"])
    return await _answer(request, lambda m: m.close_report(actor, report_id, _reason(body)))


async def player(request: web.Request) -> web.Response:
    """What a moderator needs about one player."""
    await moderator(request)
    store = request.app[keys.STORE]
    name = request.match_info["name"]
    account = await store.account(name)
    shown = name if account is None else account.name
    games = await store.finished_games(player=shown, limit=10)
    body: dict[str, Any] = {
        "name": shown,
        "account": account is not None,
        "online": await request.app[keys.HUB].is_online(shown),
        "sanctions": [sanction_json(s) for s in await store.sanctions_of(shown.lower())],
        "reports": [report_json(r) for r in await store.reports(open_only=False, subject=shown)],
        "log": [audit_json(e) for e in await store.audit_entries(50, subject=shown)],
        "games": [_game_json(game) for game in games.games],
        "chat": [
            {"room_id": line["room"], "seq": line["seq"], "text": line["text"],
             "at": line["at"].isoformat()}
            for line in await store.chat_by(shown)
        ],
    }  # fmt: skip
    return web.json_response(body)


def _game_json(game: GameInfo) -> dict[str, Any]:
    """One of a player's latest games, for the ``/mod`` page."""
    result = game.result
    return {
        "game_id": game.id,
        "game": game.game,
        "players": [None if p is None else p.name for p in game.players],
        "winner": None if result is None else result.winner,
        "reason": None if result is None else result.reason,
    }


async def log(request: web.Request) -> web.Response:
    """The audit log, newest first."""
    await moderator(request)
    try:
        limit = max(1, min(500, int(request.query.get("limit", "100"))))
    except ValueError:
        raise http_error(web.HTTPBadRequest, "bad_request", "limit is a number") from None
    entries = await request.app[keys.STORE].audit_entries(limit)
    return web.json_response({"entries": [audit_json(entry) for entry in entries]})


async def abort_room(request: web.Request) -> web.Response:
    """Call a game off, however far it went (on whichever node of a cluster holds it)."""
    actor = await moderator(request)
    body = await json_body(request)
    room_id = body.get("room_id")
    if not isinstance(room_id, str) or not room_id:
        raise http_error(web.HTTPBadRequest, "bad_request", 'send "room_id" as a text')
    reason = _reason(body)
    if not await request.app[keys.HUB].driver.room_op(room_id, Stop()):
        raise http_error(web.HTTPBadRequest, "refused", f"no room {room_id!r} is being played")
    await Moderation(request.app[keys.STORE]).record(actor, "abort_room", f"room {room_id}", reason)
    return web.json_response({"message": f"the game in room {room_id} is called off"})


async def remove_line(request: web.Request) -> web.Response:
    """Remove a chat line for everyone: a room's by ``room_id`` and ``seq``, a lobby's by
    ``author`` and ``text``."""
    actor = await moderator(request)
    body = await json_body(request)
    reason = _reason(body)
    hub = request.app[keys.HUB]
    room_id, seq = body.get("room_id"), body.get("seq")
    if isinstance(room_id, str) and isinstance(seq, int):
        if not await hub.driver.room_op(room_id, RemoveLine(seq)):
            raise http_error(web.HTTPBadRequest, "refused", f"no room {room_id!r} is being played")
        await Moderation(request.app[keys.STORE]).redact_line(actor, room_id, seq, reason)
        return web.json_response({"message": f"line {seq} of room {room_id} is removed"})
    author, text = body.get("author"), body.get("text")
    if not isinstance(author, str) or not isinstance(text, str):
        sentence = (
            'send "room_id" and "seq" for a room\'s line, "author" and "text" for the lobby\'s'
        )
        raise http_error(web.HTTPBadRequest, "bad_request", sentence)
    await hub.driver.lobby_op(RemoveLobbyLine(author, text))
    await Moderation(request.app[keys.STORE]).record(actor, "remove_line", author, reason)
    return web.json_response({"message": f"{author}'s lobby line is removed"})


async def act(request: web.Request) -> web.Response:
    """Ban, unban, mute, unmute, ban or unban an address."""
    actor = await moderator(request)
    action = request.match_info["action"]
    body = await json_body(request)
    field = "network" if action.endswith("address") else "name"
    subject = body.get(field)
    if not isinstance(subject, str) or not subject:
        raise http_error(web.HTTPBadRequest, "bad_request", f'send "{field}" as a text')
    if action in _LIFT:
        kind = _LIFT[action]
        return await _answer(request, lambda m: m.lift(actor, kind, subject, _reason(body)))
    if action not in _TAKE:
        raise http_error(web.HTTPNotFound, "not_found", f"no moderation action {action!r}")
    length = _length(body, action)

    async def take(moderation: Moderation) -> str:
        reason = _reason(body)
        if action == "ban":
            return await moderation.ban(actor, subject, reason, length)
        if action == "mute":
            return await moderation.mute(actor, subject, reason, length)
        if action == "take-name":
            return await moderation.take_name(actor, subject, reason, length)
        return await moderation.ban_address(actor, subject, reason, length)

    return await _answer(request, take)


async def _answer(request: web.Request, action: Any) -> web.Response:
    """Take ``action`` on the store, apply it here at once, and say what was done; a
    refused action is 400 with its sentence."""
    try:
        message = await action(Moderation(request.app[keys.STORE]))
    except (ActionError, ValueError) as refusal:
        raise http_error(web.HTTPBadRequest, "refused", str(refusal)) from None
    watch = request.app.get(SANCTIONS)
    if watch is not None:
        await watch.check()
    return web.json_response({"message": message})


def _length(body: dict[str, Any], action: str) -> timedelta | None:
    """The body's duration (``None``: until lifted; a day for ``take-name``)."""
    given = body.get("for")
    if given in (None, ""):
        return TAKE_NAME_FOR if action == "take-name" else None
    try:
        return parse_duration(str(given))
    except ValueError as refusal:
        raise http_error(web.HTTPBadRequest, "bad_request", str(refusal)) from None


def _reason(body: dict[str, Any]) -> str:
    """The body's reason (400 without one)."""
    reason = body.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise http_error(web.HTTPBadRequest, "bad_request", 'send "reason": every action needs one')
    return reason
