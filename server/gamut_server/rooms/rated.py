"""Rated seeks between people: who may make and accept them, and the ratings they show.

Only accounts play rated games, never against the AI, and always with the standard move
cap (see :mod:`gamut_server.people.categories`). A rated seek shows its author's rating
in the seek's category; one with a rating range is accepted only by players whose
rating there lies within it (an unrated player counts at the starting rating). The
seats of the game show both players' ratings as the game starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamut_protocol import AiOpponent, SeekInfo, SeekTerms
from gamut_protocol.errors import BAD_OPTIONS, NOT_AUTHENTICATED, UNAVAILABLE
from gamut_server.ladder.ratings import INITIAL_MU, INITIAL_SIGMA, Skill
from gamut_server.people.categories import (
    Category,
    UnratedGameError,
    category_of,
    is_provisional,
)
from gamut_server.rooms.effects import Who
from gamut_server.rooms.refusal import RefusalError

GUESTS_UNRATED = (
    "only players signed in to an account play rated games: sign up or sign in "
    "(it takes a name and a password), or seek a casual game"
)
"""Why a guest cannot seek or accept a rated game."""


@dataclass(frozen=True, slots=True)
class ShownRating:
    """A player's rating in one category as seats and seeks show it."""

    rating: int
    """The rating, rounded."""
    provisional: bool
    """Whether it is still provisional."""


def shown_rating(who: Who, category: Category) -> ShownRating:
    """``who``'s rating in ``category`` (the starting one if unrated there)."""
    mu, sigma = who.skill_in(category.id) or (INITIAL_MU, INITIAL_SIGMA)
    return ShownRating(Skill(mu, sigma).rating, is_provisional(sigma))


def rated_category(who: Who, terms: SeekTerms) -> Category:
    """The category of a rated seek ``who`` makes; a :class:`RefusalError` says why it
    cannot be rated."""
    if who.account is None:
        raise RefusalError(NOT_AUTHENTICATED, GUESTS_UNRATED)
    if isinstance(terms.opponent, AiOpponent):
        raise RefusalError(
            BAD_OPTIONS, "games against the AI are never rated: seek a casual game instead"
        )
    return _category(terms)


def check_acceptor(seek: SeekInfo, acceptor: Who) -> ShownRating:
    """The rating the acceptor of the rated ``seek`` plays at, or a :class:`RefusalError`
    saying why they may not accept it."""
    if acceptor.account is None:
        raise RefusalError(NOT_AUTHENTICATED, GUESTS_UNRATED)
    category = _category(seek)
    shown = shown_rating(acceptor, category)
    window = seek.rating_range
    if window is None or seek.author_rating is None:
        return shown
    low, high = seek.author_rating - window.below, seek.author_rating + window.above
    if not low <= shown.rating <= high:
        raise RefusalError(
            UNAVAILABLE,
            f"{seek.author} asks for an opponent rated {low} to {high} in "
            f"{category.title}; your rating there is {shown.rating}",
        )
    return shown


def _category(terms: SeekTerms) -> Category:
    """The category of the game ``terms`` ask for, or a :class:`RefusalError`."""
    try:
        return category_of(terms.game, terms.options, terms.time_control)
    except UnratedGameError as error:
        raise RefusalError(BAD_OPTIONS, str(error)) from None
