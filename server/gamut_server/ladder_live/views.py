"""The ladder as JSON: its pools, a pool's standings and its crosstable."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gamut_server.ladder.ratings import RatingModel, Skill
from gamut_server.ladder.standings import (
    GameScore,
    RatedPlayer,
    Record,
    crosstable,
    standings,
)
from gamut_server.ladder_live.state import PoolState
from gamut_server.storage import Store


def pool_json(state: PoolState) -> dict[str, Any]:
    """One pool: its definition and live figures."""
    return state.spec.describe() | state.figures()


async def rated_players(state: PoolState, store: Store, model: RatingModel) -> list[RatedPlayer]:
    """Every rated player of the pool, and members who have not played yet."""
    pool = state.spec.pool_id
    seen = {m.name: m.last_seen_at for m in await store.memberships(pool=pool) if m.member}
    players = []
    for row in await store.ratings(pool):
        players.append(
            RatedPlayer(
                name=row.name,
                kind=row.kind,
                skill=Skill(row.mu, row.sigma),
                record=Record(row.wins, row.draws, row.losses),
                last_seen=_latest(row.last_played_at, seen.pop(row.name, None)),
            )
        )
    for name, last_seen in seen.items():
        kind = state.members[name].kind if name in state.members else "bot"
        players.append(RatedPlayer(name, kind, model.initial, Record(), last_seen))
    return players


async def standings_json(state: PoolState, store: Store, model: RatingModel) -> dict[str, Any]:
    """The pool's standings."""
    rows = standings(await rated_players(state, store, model))
    return {"pool": state.spec.pool_id, "standings": [row.as_json() for row in rows]}


async def crosstable_json(state: PoolState, store: Store, model: RatingModel) -> dict[str, Any]:
    """The pool's crosstable, players in standings order."""
    order = [row.player.name for row in standings(await rated_players(state, store, model))]
    games = [
        GameScore((row.name, row.opponent), None if row.score == 0.5 else (0 if row.score else 1))
        for row in await store.rating_history(state.spec.pool_id)
        if row.side == 0
    ]
    return {"pool": state.spec.pool_id} | crosstable(order, games).as_json()


async def history_json(
    state: PoolState, store: Store, model: RatingModel, name: str
) -> dict[str, Any]:
    """One player's rating in the pool before its first game and after each one."""
    rows = await store.rating_history(state.spec.pool_id, name=name)
    start = Skill(*rows[0].before) if rows else model.initial
    return {
        "pool": state.spec.pool_id,
        "name": name,
        "start": _skill_json(start),
        "history": [
            {
                "game_id": row.game_id,
                "opponent": row.opponent,
                "score": row.score,
                **_skill_json(Skill(*row.after)),
                "at": row.at.isoformat(),
            }
            for row in rows
        ],
    }


def _skill_json(skill: Skill) -> dict[str, int]:
    """A rating as shown, with its uncertainty."""
    return {"rating": skill.rating, "uncertainty": skill.deviation}


def _latest(*moments: datetime | None) -> datetime | None:
    """The latest of the moments given, ignoring ``None``."""
    known = [moment for moment in moments if moment is not None]
    return max(known) if known else None
