"""What every fault test checks: a move refused while storage fails is told in a sentence,
to the mover and to the others; the same move is played once storage answers; every
move announced is stored once, in order, with the clocks announced."""

from __future__ import annotations

from typing import Any, Final

import aiohttp

from gamut_server.rooms.rollback import NOT_PLAYED, WAITING
from tests.server.live import WHITE_WINS, Client, Message

FISCHER: Final = {"kind": "fischer", "initial_ms": 600_000, "increment_ms": 2_000}
"""Ten minutes each and two seconds a move: no clock falls during a fault."""

RECOVERY_WAIT: Final = 60.0
"""Seconds a test waits for a game to go on after a fault (never reached when all is well)."""


def report(what: str, seconds: float) -> None:
    """Say how long a recovery took (seen with ``pytest -s``; never asserted on)."""
    print(f"\nfault figure: {what}: {seconds:.2f} s")


async def get_json(base: str, path: str) -> Any:
    """A JSON answer of the HTTP API at ``base``."""
    async with aiohttp.ClientSession() as session, session.get(f"{base}{path}") as answer:
        assert answer.status == 200, await answer.text()
        return await answer.json()


async def refused_for_storage(mover: Client, others: list[Client], room_id: str, id: str) -> None:
    """The mover's request ``id`` is refused as not stored, and each of ``others`` is told
    that the game waits for its storage; no ``move_made`` reaches anyone meanwhile."""
    refusal = await mover.expect("error", "move_made", reply_to=id, timeout=RECOVERY_WAIT)
    assert refusal["type"] == "error", refusal
    assert (refusal["code"], refusal["message"]) == ("unavailable", NOT_PLAYED)
    for other in others:
        notice = await other.expect("error", "move_made", room_id=room_id, timeout=RECOVERY_WAIT)
        assert notice["type"] == "error", notice
        assert (notice["code"], notice["message"]) == ("unavailable", WAITING)


async def move_until_stored(
    mover: Client, room_id: str, ply: int, move: str, *, tries: int = 30
) -> Message:
    """Send ``move`` for ``ply`` again and again while it is refused as not stored; its
    ``move_made`` once stored."""
    for attempt in range(tries):
        id = f"again-{ply}-{attempt}"
        await mover.send({"type": "move", "id": id, "room_id": room_id, "move": move, "ply": ply})
        answer = await mover.expect("move_made", "error", reply_to=id, timeout=RECOVERY_WAIT)
        if answer["type"] == "move_made":
            return answer
        assert answer["code"] == "unavailable", answer
    raise AssertionError(f"move {move} at ply {ply} was never stored")


async def play_seen(
    mover: Client, others: list[Client], room_id: str, move: str, ply: int
) -> Message:
    """``mover`` plays ``move`` at ``ply``, and each of ``others`` sees it: its ``move_made``."""
    await mover.send({"type": "move", "room_id": room_id, "move": move, "ply": ply})
    made = await mover.expect("move_made", room_id=room_id, ply=ply, timeout=RECOVERY_WAIT)
    for other in others:
        await other.expect("move_made", room_id=room_id, ply=ply, timeout=RECOVERY_WAIT)
    return made


def check_record(record: dict[str, Any], told: list[Message], moves: tuple[str, ...]) -> None:
    """The stored game holds each move announced, once, in order, with the clocks told."""
    assert [move["move"] for move in record["moves"]] == list(moves)
    assert [move["ply"] for move in record["moves"]] == list(range(len(moves)))
    assert [made["move"] for made in told] == list(moves)
    assert [move["clocks"] for move in record["moves"]] == [
        made["clocks"]["remaining_ms"] if made["clocks"] else None for made in told
    ]


def whole_game() -> tuple[str, ...]:
    """The moves of the game every fault test plays: a Network game White wins."""
    return WHITE_WINS
