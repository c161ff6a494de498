"""Rooms of the same game share the game's one instance, and build their move events
without checking them again; what they send is as before."""

from __future__ import annotations

import dataclasses
import random

import pytest

from gamut_protocol import Fischer, MoveMade, PerMove, Untimed, dump, parse_server_message
from gamut_server.rooms import Room, Send, check_options
from gamut_server.rooms.catalog import BadOptionsError
from gamut_server.rooms.describe import hosted_game
from tests.server.rooms_support import ALICE, BOB, network_spec, play


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


@pytest.mark.parametrize(
    ("game", "options", "control"),
    [
        ("connect5", {"size": 15}, Untimed()),
        ("network", {}, Fischer(initial_ms=60_000, increment_ms=1_000)),
        ("loa", {"size": 6}, PerMove(move_ms=30_000)),
        ("crusher", {"n": 3}, Untimed()),
    ],
)
def test_every_move_made_reads_back_as_the_protocol_checks_it(game, options, control):
    """Rooms build their move events without validating them again: what each player and
    spectator is sent must be a valid message that reads back to the same text."""
    spec = dataclasses.replace(network_spec(control), game=game, options=options)
    room = Room("r1", spec)
    room.start((ALICE, BOB), 0)
    rng, now_ms, checked = random.Random(7), 0, 0
    while not room.over and room.match.ply < 60:
        now_ms += 100
        who = (ALICE, BOB)[room.match.to_move]
        for effect in play(room, who, rng.choice(room.match.legal()), now_ms, id=now_ms):
            if isinstance(effect, Send) and isinstance(effect.message, MoveMade):
                for message in (effect.message, effect.lean):
                    if message is not None:
                        text = dump(message)
                        assert dump(parse_server_message(text)) == text
                        checked += 1
    assert checked >= 2 * room.match.ply
