"""Rating the rated games between people, and telling the room.

A rated game outside the ladder is played between two accounts. When it ends with a
result (an aborted game is not rated), both players are rated in the game's category
with openskill, on the ladder's scale (:class:`~gamut_server.ladder.ratings.
RatingModel`), from the ratings they have when it ends. The history and both new
ratings are stored in one transaction; then everyone following the room is told by
``game_rated``. A game that ended while the server could not rate it is rated when the
server starts again.
"""

from __future__ import annotations

import logging

from gamut_protocol import GameRated, RatingChange
from gamut_server.ladder.ratings import RatingModel, Skill, score_of
from gamut_server.people.categories import (
    Category,
    UnratedGameError,
    category_of,
    is_provisional,
)
from gamut_server.rooms.stored import spec_from_record
from gamut_server.storage import (
    GameAlreadyRatedError,
    GameInfo,
    RatedGameSides,
    RatingStep,
    SkillPair,
    Store,
)

log = logging.getLogger(__name__)


class PeopleRatings:
    """Rates people's rated games."""

    def __init__(self, store: Store, model: RatingModel | None = None) -> None:
        """Ratings kept in ``store``, computed by ``model``."""
        self.store = store
        self.model = model or RatingModel()
        """The ladder's model: the same scale for everyone."""

    async def rate(self, info: GameInfo) -> GameRated | None:
        """Rate the stored game ``info`` if it is a rated game between people with a
        result; the ``game_rated`` to send, or ``None`` (not such a game, or rated before)."""
        sides = rated_sides(info)
        if sides is None:
            return None
        category = category_of_game(info)
        initial = (self.model.initial.mu, self.model.initial.sigma)
        score = score_of(sides.winner, 0)

        def rate(first: SkillPair, second: SkillPair) -> tuple[SkillPair, SkillPair]:
            after = self.model.rate(Skill(*first), Skill(*second), score)
            return (after[0].mu, after[0].sigma), (after[1].mu, after[1].sigma)

        try:
            steps = await self.store.rate_people_game(sides, rate, initial)
        except GameAlreadyRatedError:
            return None
        return GameRated(
            room_id=info.id,
            category=category.id,
            category_title=category.title,
            players=(_change(info, steps[0]), _change(info, steps[1])),
        )

    async def catch_up(self) -> list[GameRated]:
        """Rate the games that ended while the server could not rate them."""
        rated = []
        for info in await self.store.unrated_people_games():
            try:
                message = await self.rate(info)
            except UnratedGameError as error:
                log.warning("game %s cannot be rated: %s", info.id, error)
                continue
            if message is not None:
                rated.append(message)
        return rated


def rated_sides(info: GameInfo) -> RatedGameSides | None:
    """The accounts and result of a finished rated game between people, or ``None``."""
    first, second = info.players
    if not info.rated or info.pool is not None or info.status != "finished":
        return None
    if first is None or second is None or first.account_id is None or second.account_id is None:
        return None
    if info.result is None:
        return None
    return RatedGameSides(
        game_id=info.id,
        category=category_of_game(info).id,
        accounts=(first.account_id, second.account_id),
        winner=info.result.winner,
    )


def category_of_game(info: GameInfo) -> Category:
    """The rating category of a stored game."""
    spec = spec_from_record(info)
    return category_of(spec.game, spec.options, spec.time_control)


def _change(info: GameInfo, step: RatingStep) -> RatingChange:
    """One player's rating change as the wire shows it."""
    player = info.players[step.side]
    before, after = Skill(*step.before), Skill(*step.after)
    return RatingChange(
        name=player.name if player is not None else "?",
        rating=after.rating,
        uncertainty=after.deviation,
        change=after.rating - before.rating,
        provisional=is_provisional(after.sigma) or None,
    )
