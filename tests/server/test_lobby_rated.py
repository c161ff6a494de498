"""The lobby's rated seeks between people: who may make and accept them, and the ratings
the seek and the new game's seats show; and a challenge finds its player whatever the
case of the name."""

from __future__ import annotations

from typing import Any

from gamut_protocol import (
    AcceptSeek,
    AiOpponent,
    NamedOpponent,
    PerMove,
    RatingRange,
    Seek,
    SeekCreated,
)
from gamut_server.rooms import Lobby, LobbyConfig, OpenRoom, Who
from tests.server.rooms_support import error_to, only, received

BLITZ = PerMove(move_ms=5000)
ADA = Who(1, "Ada_L", account=11, ratings=(("connect5-9.blitz", 1710.4, 180.0),))
BOB = Who(2, "bob", account=12, ratings=(("connect5-9.blitz", 1650.0, 300.0),))
CAROL = Who(3, "carol", account=13)
GUEST = Who(4, "visitor")


def lobby() -> Lobby:
    """A lobby where everyone is subscribed and the seeker plays first."""
    ids = iter(f"room{n}" for n in range(1, 100))
    made = Lobby(LobbyConfig(new_room_id=lambda: next(ids), choose_side=lambda: 0))
    for who in (ADA, BOB, CAROL, GUEST):
        made.enter(who, 0)
    return made


def rated_seek(**terms: Any) -> Seek:
    """A rated Connect Five 9×9 blitz seek."""
    return Seek(game="connect5", options={"size": 9}, time_control=BLITZ, rated=True, **terms)


def test_a_rated_seek_shows_its_authors_rating_in_its_category():
    effects = lobby().handle(ADA, rated_seek(), 1)
    seek = only(received(effects, BOB), SeekCreated).seek
    assert (seek.author_rating, seek.author_provisional) == (1710, None)


def test_an_unrated_author_shows_the_provisional_starting_rating():
    effects = lobby().handle(CAROL, rated_seek(), 1)
    seek = only(received(effects, BOB), SeekCreated).seek
    assert (seek.author_rating, seek.author_provisional) == (1500, True)


def test_accepting_a_rated_seek_seats_both_with_their_ratings_and_accounts():
    room = lobby()
    seek = only(received(room.handle(ADA, rated_seek(), 1), ADA), SeekCreated).seek
    effects = room.handle(BOB, AcceptSeek(seek_id=seek.seek_id), 2)
    opening = next(effect for effect in effects if isinstance(effect, OpenRoom))
    first, second = opening.spec.seats
    assert (first.name, first.rating, first.provisional, first.account) == (
        "Ada_L",
        1710,
        False,
        11,
    )
    assert (second.name, second.rating, second.provisional, second.account) == (
        "bob",
        1650,
        True,
        12,
    )
    assert opening.spec.rated


def test_guests_and_the_ai_are_refused_rated_games_with_why():
    room = lobby()
    assert "sign up or sign in" in error_to(room.handle(GUEST, rated_seek(), 1), GUEST).message
    refusal = error_to(room.handle(ADA, rated_seek(opponent=AiOpponent(level=2)), 1), ADA)
    assert "never rated" in refusal.message
    seek = only(received(room.handle(ADA, rated_seek(), 1), ADA), SeekCreated).seek
    refusal = error_to(room.handle(GUEST, AcceptSeek(seek_id=seek.seek_id), 2), GUEST)
    assert refusal.code == "not_authenticated"


def test_a_rating_range_is_relative_to_the_authors_rating():
    room = lobby()
    window = RatingRange(below=60, above=0)
    seek = only(received(room.handle(ADA, rated_seek(rating_range=window), 1), ADA), SeekCreated)
    refusal = error_to(room.handle(CAROL, AcceptSeek(seek_id=seek.seek.seek_id), 2), CAROL)
    assert "rated 1650 to 1710" in refusal.message
    accepted = room.handle(BOB, AcceptSeek(seek_id=seek.seek.seek_id), 3)
    assert any(isinstance(effect, OpenRoom) for effect in accepted)


def test_a_casual_seek_drops_a_rating_range_and_shows_no_rating():
    effects = lobby().handle(
        GUEST, Seek(game="connect5", rating_range=RatingRange(below=1, above=1)), 1
    )
    seek = only(received(effects, GUEST), SeekCreated).seek
    assert seek.rating_range is None
    assert seek.author_rating is None


def test_a_challenge_finds_its_player_whatever_the_case():
    effects = lobby().handle(BOB, Seek(game="connect5", opponent=NamedOpponent(name="ADA_L")), 1)
    seek = only(received(effects, ADA), SeekCreated).seek
    assert seek.opponent == NamedOpponent(name="Ada_L")
