"""Players' pages as JSON: a profile, every game of a player, and the best of each category.

| path | answer |
| --- | --- |
| ``GET /api/players/{name}`` | ratings with their history, record, live and recent games |
| ``GET /api/players/{name}/games`` | every game over, paged: ``limit``, ``offset`` |
| ``GET /api/players`` | the best of every category (``?category=`` for one; ``limit``) |

A name is found whatever its case; the answers spell it as its owner does. Guests have
no page. Provisional ratings are marked and left out of the best players.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Final

from aiohttp import web

from gamut_server import keys
from gamut_server.edge.http_api import info_json, int_query
from gamut_server.ladder.ratings import Skill
from gamut_server.ladder_live.http import http_error
from gamut_server.people.categories import PROVISIONAL_SIGMA, describe_category, is_provisional
from gamut_server.storage import Account, GameInfo, PlayerRating, RatingStep, Store

RECENT_GAMES: Final = 10
"""Games a profile lists."""

HISTORY_POINTS: Final = 200
"""The latest ratings a profile's graph of one category shows."""

MAX_PAGE: Final = 100
"""The largest page of games one request may ask for."""

LEADERS: Final = 10
"""Players listed per category by default."""

ONLINE: Final = web.AppKey[Callable[[str], Awaitable[bool]]]("people_online")
"""Whether a name has a connection now (set by the application)."""


def add_profile_routes(app: web.Application) -> None:
    """Register the players' endpoints on ``app``."""
    app.router.add_get("/api/players", leaderboard)
    app.router.add_get("/api/players/{name}", profile)
    app.router.add_get("/api/players/{name}/games", player_games)


async def profile(request: web.Request) -> web.Response:
    """One account's profile."""
    store = request.app[keys.STORE]
    account = await _account(request)
    ratings = await store.player_ratings(account.id)
    steps = await store.rating_steps(account.id)
    recent = await store.account_games(account.id, limit=RECENT_GAMES, offset=0)
    tally = await store.account_tally(account.id)
    body = {
        "name": account.name,
        "created_at": account.created_at.isoformat(),
        "online": await request.app[ONLINE](account.name),
        "playing": await store.account_running_games(account.id),
        "record": {"wins": tally.wins, "draws": tally.draws, "losses": tally.losses},
        "ratings": [_rating_json(rating, steps) for rating in ratings],
        "recent": await _games_json(store, account, recent.games),
        "total_games": recent.total,
    }
    return web.json_response(body)


async def player_games(request: web.Request) -> web.Response:
    """A page of one account's games, newest first, each with its rating change."""
    store = request.app[keys.STORE]
    account = await _account(request)
    limit = int_query(request, "limit", 20, 1, MAX_PAGE)
    offset = int_query(request, "offset", 0, 0, 10**9)
    page = await store.account_games(account.id, limit=limit, offset=offset)
    body = {
        "name": account.name,
        "games": await _games_json(store, account, page.games),
        "total": page.total,
        "offset": page.offset,
        "limit": page.limit,
    }
    return web.json_response(body)


async def leaderboard(request: web.Request) -> web.Response:
    """The best players whose rating is no longer provisional, per category."""
    store = request.app[keys.STORE]
    limit = int_query(request, "limit", LEADERS, 1, MAX_PAGE)
    wanted = request.query.get("category")
    categories = [
        category
        for category, _ in await store.rated_categories()
        if wanted is None or category == wanted
    ]
    listing = []
    for category in categories:
        leaders = await store.leaders(category, limit=limit, max_sigma=PROVISIONAL_SIGMA)
        listing.append(
            {
                "category": category,
                "title": describe_category(category),
                "players": [
                    {"name": leader.name} | _skill_json(leader.rating) for leader in leaders
                ],
            }
        )
    return web.json_response({"categories": listing})


def _rating_json(rating: PlayerRating, steps: Iterable[RatingStep]) -> dict[str, Any]:
    """One rating with its record and the history its graph draws."""
    history = [step for step in steps if step.category == rating.category][-HISTORY_POINTS:]
    points = []
    if history:
        points.append(_point(Skill(*history[0].before), None, None))
    points += [_point(Skill(*step.after), step.game_id, step.at.isoformat()) for step in history]
    return (
        {"category": rating.category, "title": describe_category(rating.category)}
        | _skill_json(rating)
        | {"last_played_at": rating.last_played_at.isoformat(), "history": points}
    )


def _skill_json(rating: PlayerRating) -> dict[str, Any]:
    """A rating as its pages show it: rounded, provisional or not, and its record."""
    skill = Skill(rating.mu, rating.sigma)
    return {
        "rating": skill.rating,
        "uncertainty": skill.deviation,
        "provisional": is_provisional(rating.sigma),
        "games": rating.games,
        "wins": rating.wins,
        "draws": rating.draws,
        "losses": rating.losses,
    }


def _point(skill: Skill, game_id: str | None, at: str | None) -> dict[str, Any]:
    """One point of a rating graph."""
    return {"rating": skill.rating, "uncertainty": skill.deviation, "game": game_id, "at": at}


async def _games_json(
    store: Store, account: Account, found: Iterable[GameInfo]
) -> list[dict[str, Any]]:
    """Games as JSON, each with the account's rating change when it was rated."""
    games = list(found)
    steps = {
        step.game_id: step
        for step in await store.rating_steps_in(account.id, [game.id for game in games])
    }
    return [_game_json(game, steps.get(game.id)) for game in games]


def _game_json(game: GameInfo, step: RatingStep | None) -> dict[str, Any]:
    """One game, with the player's rating change in it if any."""
    body = info_json(game)
    if step is not None:
        before, after = Skill(*step.before), Skill(*step.after)
        body["rating_change"] = {
            "category": step.category,
            "before": before.rating,
            "after": after.rating,
            "change": after.rating - before.rating,
        }
    return body


async def _account(request: web.Request) -> Account:
    """The account the path names, whatever its case (404 if none)."""
    name = request.match_info["name"]
    account = await request.app[keys.STORE].account(name)
    if account is None:
        raise http_error(
            web.HTTPNotFound,
            "unknown_player",
            f"no account is called {name!r}: only accounts have a page (guests have none)",
        )
    return account
