"""What the terminal client's lobby costs per lobby message, with many rooms listed.

A headless ``gamut play`` (no server: it is fed the messages directly) shows a lobby of
``--rooms`` rooms, then receives ``--messages`` ``room_updated`` messages in one burst, as
a backlog reaches it under a busy server; the processor time the client spends until
the interface has drawn them all, divided by the messages, is the cost of each. Not
part of the test run. Usage:
``python bench/tui_lobby.py [--rooms 50,200,500] [--messages 300]``.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from gamut_client.link import Backoff
from gamut_client.tui.app import GamutApp
from gamut_protocol import LobbySnapshot, RoomSummary, RoomUpdated, Seat, Welcome

PLAYERS = (Seat(name="r1", kind="bot"), Seat(name="r2", kind="bot"))


def room(number: int, ply: int = 0, status: str = "finished") -> RoomSummary:
    """Room ``number`` of the lobby."""
    return RoomSummary.model_validate(
        {
            "room_id": f"room{number:04d}",
            "game": "connect5",
            "title": "Connect Five 15×15",
            "players": PLAYERS,
            "status": status,
            "ply": ply,
        }
    )


async def measure(rooms: int, messages: int) -> float:
    """Milliseconds per message, until the interface has drawn them all."""
    app = GamutApp("ws://127.0.0.1:9/ws", "ada", backoff=Backoff(attempts=0))
    async with app.run_test(size=(120, 40)) as pilot:
        app.deliver(Welcome(protocol=2, server="bench", name="ada", kind="human"))
        app.deliver(LobbySnapshot(online=3, rooms=tuple(room(n) for n in range(rooms))))
        await pilot.pause()
        live = 8
        start = time.process_time()
        for count in range(messages):
            app.deliver(RoomUpdated(room=room(count % live, count // live, "running")))
        # Past any throttled redraw; an idle interface spends next to no processor time.
        await pilot.pause(0.3)
        per_message = (time.process_time() - start) / messages
    return per_message * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rooms", default="50,200,500", help="lobby sizes, comma-separated")
    parser.add_argument("--messages", type=int, default=300, help="messages in the burst")
    args = parser.parse_args()
    print("| rooms | ms per room_updated |")
    print("|---:|---:|")
    for rooms in (int(text) for text in args.rooms.split(",")):
        cost = await measure(rooms, args.messages)
        print(f"| {rooms} | {cost:.2f} |")


if __name__ == "__main__":
    asyncio.run(main())
