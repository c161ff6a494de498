"""Rooms of the same game share the game's one instance, and build their move events
without checking them again; what they send is as before."""

from __future__ import annotations

import dataclasses

import pytest

from gamut_server.rooms import Room, check_options
from gamut_server.rooms.catalog import BadOptionsError
from gamut_server.rooms.describe import hosted_game
from tests.server.rooms_support import ALICE, BOB, network_spec


def connect5_room(room_id: str, **options: int) -> Room:
    """A started Connect Five room with ``options``."""
    spec = dataclasses.replace(network_spec(), game="connect5", options=dict(options))
    room = Room(room_id, spec)
    room.start((ALICE, BOB), 0)
    return room


def test_rooms_of_one_game_and_options_share_its_instance():
    first, second = connect5_room("a", size=15), connect5_room("b", size=15)
    assert first.match.game is second.match.game
    assert check_options("connect5", {"size": 15}) is first.match.game


def test_other_options_make_another_game():
    small, large = connect5_room("a", size=9), connect5_room("b", size=15)
    assert small.match.game is not large.match.game
    assert small.match.game.options["size"] == 9
    assert large.match.game.options["size"] == 15


def test_a_shared_game_keeps_each_room_s_position_its_own():
    first, second = connect5_room("a"), connect5_room("b")
    first.match.play(first.match.check(0, "h8", 0), 10)
    assert first.match.ply == 1
    assert second.match.ply == 0
    assert second.match.position().board.count(None) == 225


def test_options_a_game_refuses_are_refused_every_time():
    for _ in range(2):
        with pytest.raises(BadOptionsError, match="size"):
            check_options("connect5", {"size": 4})
    with pytest.raises(ValueError, match="whole number"):
        hosted_game("connect5", {"size": True})
    assert hosted_game("connect5", {"size": 15}).options["size"] == 15
