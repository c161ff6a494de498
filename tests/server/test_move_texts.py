"""Each form of a ``move_made`` written from one serialisation reads exactly as the
protocol's own ``dump`` writes it."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic_core import to_json

from gamut_protocol import Fischer, MoveMade, Untimed, dump
from gamut_server.core.move_texts import MoveTexts, texts_json
from gamut_server.rooms import Room, RoomConfig, RoomSpec, SeatSpec, Send
from tests.server.rooms_support import ALICE, BOB, play

REPLIES: tuple[Any, ...] = (None, 7, "m-1", 'a "quoted" \\ id', "Zoë 手 \u2028 </script>", 0)


def connect5_room(timed: bool) -> Room:
    """A Connect Five room between alice and bob, timed or not, started."""
    control = Fischer(initial_ms=60_000, increment_ms=1_000) if timed else Untimed()
    seats = (SeatSpec("alice", "human"), SeatSpec("bob", "bot"))
    spec = RoomSpec(game="connect5", options={}, seats=seats, time_control=control)
    room = Room("r1", spec, RoomConfig(new_room_id=lambda: "r2"))
    room.start((ALICE, BOB), 0)
    return room


def forms(batch: list[Any]) -> list[MoveMade]:
    """Every ``move_made`` a batch sends, in both its forms."""
    sent = [effect for effect in batch if isinstance(effect, Send)]
    found = [form for send in sent for form in (send.message, send.lean)]
    return [form for form in found if isinstance(form, MoveMade)]


@pytest.mark.parametrize("timed", [False, True])
def test_every_form_of_every_move_reads_as_dump_writes_it(timed: bool) -> None:
    room = connect5_room(timed)
    texts = MoveTexts()
    players = (ALICE, BOB)
    for ply, reply in enumerate(REPLIES * 2):
        mover = players[ply % 2]
        legal = room.match.legal()
        made = forms(play(room, mover, legal[ply * 53 % len(legal)], 1_000 * (ply + 1), id=reply))
        assert len(made) >= 2
        assert room.match.over or any(form.legal_moves for form in made)
        assert any(not form.legal_moves and form.reply_to == reply for form in made)
        for form in made:
            assert texts.text(form) == dump(form)
            again = form.model_copy(update={"reply_to": "other", "legal_moves": ("a1",)})
            assert texts.text(again) == dump(again)


def test_another_event_at_the_same_number_is_serialised_anew() -> None:
    room = connect5_room(False)
    texts = MoveTexts()
    first = forms(play(room, ALICE, "h8", 1_000))[0]
    assert texts.text(first) == dump(first)
    other = first.model_copy(update={"move": "a1", "position": first.position.model_copy()})
    assert texts.text(other) == dump(other)


JOINED: tuple[tuple[str, ...], ...] = (
    ("a1",),
    ("h8", "o15", "e5-e7"),
    ('a"1', "b2"),
    ("a\\1",),
    ("Zoë", "手"),
    ("a\x7f",),
    ("\u2028",),
)


@pytest.mark.parametrize("texts", JOINED)
def test_move_texts_join_into_the_json_pydantic_writes(texts: tuple[str, ...]) -> None:
    assert texts_json(texts) == to_json(texts).decode()
