"""Whatever players, spectators and timers throw at a room, it stays consistent.

Hypothesis drives a timed Network room with random messages from random connections,
drops, returns, timer calls and play, then checks the invariants the async
layer relies on: nothing raises, events are numbered 1, 2, 3… with no gap, moves are
stored ply by ply, a game ends once, errors go only to the asker, and every message
is valid on the wire.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamut_protocol import (
    Abort,
    AcceptDraw,
    Chat,
    DeclineDraw,
    DeclineRematch,
    ErrorMessage,
    Join,
    Leave,
    Move,
    OfferDraw,
    Rematch,
    Resign,
    Resume,
    RoomSnapshot,
    SequencedEvent,
    dump,
    parse_server_message,
)
from gamut_server.rooms import (
    Effect,
    OpenRoom,
    Room,
    RoomConfig,
    Send,
    StoreAbort,
    StoreChat,
    StoreMove,
    StoreResult,
    Who,
)
from tests.server.rooms_support import network_spec, per_move

PEOPLE = (Who(1, "alice"), Who(2, "bob"), Who(3, "carol"), Who(4, "alice"))
TEXTS = st.sampled_from(["02", "22", "10", "00", "55", "02-22", "zz", "A4", "77"])

actions = st.one_of(
    st.tuples(st.just("legal"), st.integers(0, 3), st.integers(0, 10_000)),
    st.tuples(st.just("text"), st.integers(0, 3), TEXTS, st.integers(-1, 2)),
    st.tuples(
        st.just("message"),
        st.integers(0, 3),
        st.sampled_from(
            [
                "join_player",
                "join_spectator",
                "leave",
                "resign",
                "offer_draw",
                "accept_draw",
                "decline_draw",
                "abort",
                "rematch",
                "decline_rematch",
                "chat",
                "resume",
            ]
        ),
    ),
    st.tuples(st.just("drop"), st.integers(0, 3)),
    st.tuples(st.just("back"), st.integers(0, 3)),
    st.tuples(st.just("wait"), st.integers(0, 90_000)),
)


def room_message(kind: str, room: Room) -> Any:
    """A room message of ``kind`` for ``room``."""
    rid = room.room_id
    simple = {
        "leave": Leave,
        "resign": Resign,
        "offer_draw": OfferDraw,
        "accept_draw": AcceptDraw,
        "decline_draw": DeclineDraw,
        "abort": Abort,
        "rematch": Rematch,
        "decline_rematch": DeclineRematch,
    }
    if kind in simple:
        return simple[kind](room_id=rid, id=kind)
    if kind == "join_player":
        return Join(room_id=rid, role="player")
    if kind == "join_spectator":
        return Join(room_id=rid)
    if kind == "chat":
        return Chat(room_id=rid, text="hi")
    return Resume(room_id=rid, after_seq=max(0, room.seq - 2))


class Ledger:
    """What the async layer would have seen, checked batch by batch."""

    def __init__(self) -> None:
        self.events: dict[int, SequencedEvent] = {}
        self.stored_plies: list[int] = []
        self.endings = 0

    def check(self, batch: list[Effect], asker: Who | None, room: Room) -> None:
        """Check one batch."""
        for effect in batch:
            if isinstance(effect, StoreMove):
                assert effect.ply == len(self.stored_plies)
                assert self.endings == 0
                self.stored_plies.append(effect.ply)
            elif isinstance(effect, StoreResult | StoreAbort):
                self.endings += 1
            elif isinstance(effect, StoreChat):
                assert effect.seq <= room.seq
            elif isinstance(effect, Send):
                self._check_send(effect, asker)
        assert self.endings <= 1
        assert room.over == (self.endings == 1)

    def _check_send(self, send: Send, asker: Who | None) -> None:
        message = send.message
        assert parse_server_message(dump(message)) == message
        if isinstance(message, ErrorMessage):
            assert asker is not None
            assert send.to == (asker.conn,)
            return
        seq = getattr(message, "seq", None)
        if seq is not None and not isinstance(message, RoomSnapshot):
            known = self.events.setdefault(seq, message)  # type: ignore[arg-type]
            assert known.model_copy(update={"reply_to": None}) == message.model_copy(
                update={"reply_to": None}
            )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(actions, max_size=60))
def test_a_room_stays_consistent_under_any_traffic(steps: list[Any]) -> None:
    config = RoomConfig(grace_ms=20_000, abandon_ms=60_000, new_room_id=lambda: "next")
    room = Room("r1", network_spec(per_move(30_000)), config)
    ledger = Ledger()
    now = 0
    ledger.check(room.start(PEOPLE[:2], now), None, room)
    for step in steps:
        now += 7
        kind, *args = step
        who = PEOPLE[args[0]] if kind != "wait" else None
        if kind == "legal":
            legal = room.match.legal()
            text = legal[args[1] % len(legal)] if legal else "02"
            message = Move(room_id="r1", move=text, ply=room.match.ply)
            batch = room.handle(PEOPLE[args[0]], message, now)
        elif kind == "text":
            message = Move(room_id="r1", move=args[1], ply=max(0, room.match.ply + args[2]))
            batch = room.handle(PEOPLE[args[0]], message, now)
        elif kind == "message":
            batch = room.handle(PEOPLE[args[0]], room_message(args[1], room), now)
        elif kind == "drop":
            batch = room.disconnected(PEOPLE[args[0]], now)
        elif kind == "back":
            batch = room.connected(PEOPLE[args[0]], now)
        else:
            now += args[0]
            batch = room.expire(now)
        ledger.check(batch, who, room)
        assert all(not isinstance(e, OpenRoom) or room.over for e in batch)
        deadline = room.next_deadline_ms()
        assert deadline is None or not room.over
    log = room.events_after(0)
    assert log is not None
    assert [event.seq for event in log] == list(range(1, room.seq + 1))
    for seq, sent in ledger.events.items():
        assert log[seq - 1] == sent.model_copy(update={"reply_to": None})
    snapshot = room.snapshot(PEOPLE[2], now)
    assert snapshot.position.ply == len(ledger.stored_plies)
    assert parse_server_message(dump(snapshot)) == snapshot
