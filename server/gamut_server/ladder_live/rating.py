"""Rating one finished ladder game: the model's new skills, stored, and the message for the
players."""

from __future__ import annotations

from gamut_protocol import LadderResult, RatingChange
from gamut_server.ladder.ratings import RatingModel, Skill, score_of
from gamut_server.ladder_live.state import PoolState
from gamut_server.storage import AlreadyRatedError, RatingUpdate, Store


async def rate_game(
    model: RatingModel,
    store: Store,
    state: PoolState,
    game_id: str,
    seats: tuple[tuple[str, str], tuple[str, str]],
    winner: int | None,
) -> LadderResult | None:
    """Rate a game between the ``(name, kind)`` seats, store it and update ``state``;
    the ``ladder_result`` to send, or ``None`` if the game was rated before.

    A settled anchor (the AI, its uncertainty low enough) keeps its rating.
    """
    before = [state.skill(name, model) for name, _ in seats]
    frozen = [
        kind == "ai" and model.settled(skill)
        for (_, kind), skill in zip(seats, before, strict=True)
    ]
    after = model.rate(before[0], before[1], score_of(winner, 0), frozen=(frozen[0], frozen[1]))
    updates = [
        RatingUpdate(
            name=name,
            kind=kind,
            side=side,
            score=score_of(winner, side),
            before=(before[side].mu, before[side].sigma),
            after=(after[side].mu, after[side].sigma),
            account_id=None if kind == "ai" else await _account_id(store, name),
        )
        for side, (name, kind) in enumerate(seats)
    ]
    try:
        await store.record_rating(game_id, state.spec.pool_id, (updates[0], updates[1]))
    except AlreadyRatedError:
        return None
    for (name, kind), skill in zip(seats, after, strict=True):
        state.skills[name], state.kinds[name] = skill, kind
    changes = (_change(seats[0][0], before[0], after[0]), _change(seats[1][0], before[1], after[1]))
    return LadderResult(pool=state.spec.pool_id, room_id=game_id, players=changes)


async def _account_id(store: Store, name: str) -> int | None:
    """The id of ``name``'s account, if it has one."""
    account = await store.account(name)
    return None if account is None else account.id


def _change(name: str, before: Skill, after: Skill) -> RatingChange:
    """A player's rating change, as the wire shows it."""
    return RatingChange(
        name=name,
        rating=after.rating,
        uncertainty=after.deviation,
        change=after.rating - before.rating,
    )
