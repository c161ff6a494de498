"""Helpers shared by the room and lobby tests: players, a scripted Network win, and
ways to read a batch of effects."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from gamut_protocol import (
    Clocks,
    ErrorMessage,
    Move,
    PerMove,
    ServerMessage,
    TimeControl,
    Untimed,
)
from gamut_server.rooms import (
    Effect,
    Room,
    RoomConfig,
    RoomSpec,
    SeatSpec,
    Send,
    Who,
)

T = TypeVar("T")

ALICE = Who(1, "alice")
BOB = Who(2, "bob", "bot")
CAROL = Who(3, "carol")
ALICE_AGAIN = Who(4, "alice")

WHITE_WIN = ("02", "22", "24", "46", "66", "75")
"""White's chips in order: the last one completes the network 02 22 24 46 66 75."""
BLACK_IDLE = ("10", "30", "50", "17", "37", "57")
"""Black's chips in its own goals, far from White's network."""


def network_spec(
    control: TimeControl | None = None,
    seats: tuple[SeatSpec, SeatSpec] | None = None,
) -> RoomSpec:
    """A Network game between alice (White) and bob (Black)."""
    return RoomSpec(
        game="network",
        options={},
        seats=seats or (SeatSpec("alice", "human"), SeatSpec("bob", "bot")),
        time_control=control if control is not None else Untimed(),
    )


def started_room(
    spec: RoomSpec | None = None,
    config: RoomConfig | None = None,
    members: Sequence[Who] = (ALICE, BOB),
    now_ms: int = 0,
) -> tuple[Room, list[Effect]]:
    """A room with alice and bob seated, started at ``now_ms``, and its start batch."""
    ids = iter(f"rematch{n}" for n in range(1, 100))
    room = Room("r1", spec or network_spec(), config or RoomConfig(new_room_id=lambda: next(ids)))
    return room, room.start(members, now_ms)


def per_move(ms: int) -> PerMove:
    """A per-move time control."""
    return PerMove(move_ms=ms)


def play(
    room: Room, who: Who, text: str, now_ms: int, *, ply: int | None = None, id: Any = None
) -> list[Effect]:
    """``who`` plays ``text`` at ``now_ms`` (answering the current ply unless told)."""
    answered = room.match.ply if ply is None else ply
    return room.handle(who, Move(room_id=room.room_id, move=text, ply=answered, id=id), now_ms)


def received(effects: Sequence[Effect], who: Who) -> list[ServerMessage]:
    """The messages ``who``'s connection gets from ``effects``, in order."""
    return [e.message for e in effects if isinstance(e, Send) and who.conn in e.to]


def only(items: Sequence[Any], kind: type[T]) -> T:
    """The one item of ``kind`` in ``items``."""
    found = [item for item in items if isinstance(item, kind)]
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]


def all_of(items: Sequence[Any], kind: type[T]) -> list[T]:
    """Every item of ``kind`` in ``items``."""
    return [item for item in items if isinstance(item, kind)]


def seqs(messages: Sequence[ServerMessage]) -> list[int | None]:
    """The sequence number of each message (``None`` for unnumbered ones)."""
    return [getattr(message, "seq", None) for message in messages]


def clocks_of(clocks: Clocks | None) -> Clocks:
    """``clocks``, which the test expects to be there."""
    assert clocks is not None
    return clocks


def error_to(effects: Sequence[Effect], who: Who) -> ErrorMessage:
    """The one error ``who`` gets from ``effects``."""
    return only(received(effects, who), ErrorMessage)
