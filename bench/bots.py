"""The server benchmark's bots: Network games of random legal moves over real WebSockets."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import aiohttp
from loadgen import Tally

RETRY_S = 0.1
"""Seconds a bot waits before sending a move the server dropped for its rate."""

CONNECT_AT_ONCE = 100
"""Connections opened concurrently while setting up."""

SEEK = {"game": "network", "options": {"max_plies": 400}}
"""What the bots play by default."""

SEEKS = {
    "network": SEEK,
    "connect5": {"game": "connect5", "options": {"size": 15}},
}
"""What the bots play, by the benchmark's ``--game``."""

AI_SEEK = {"game": "connect5", "opponent": {"kind": "ai", "level": 8}, "side": 1}
"""What the AI run's thinkers play: the AI searches for its full (capped) time."""

BOT_PROTOCOL = 3
"""The newest protocol version the bots speak (they speak any older one too)."""

Message = dict[str, Any]


class Bot:
    """One WebSocket client under one name."""

    def __init__(self, name: str, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.name = name
        self.ws = ws

    @classmethod
    async def connect(
        cls, session: aiohttp.ClientSession, url: str, name: str, version: int
    ) -> Bot:
        """Connect and say hello as a bot that does not follow the lobby."""
        ws = await session.ws_connect(url, max_msg_size=8 * 1024 * 1024, heartbeat=None)
        bot = cls(name, ws)
        hello = {"type": "hello", "name": name, "kind": "bot", "lobby": False}
        await bot.send(hello | {"protocol": min(version, BOT_PROTOCOL)})
        await bot.expect("welcome")
        return bot

    async def send(self, message: Message) -> None:
        """Send one message."""
        await self.ws.send_str(json.dumps(message))

    async def receive(self) -> Message:
        """The next message; ``ConnectionError`` once the socket closes."""
        frame = await self.ws.receive()
        if frame.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(
                f"{self.name}: socket closed ({frame.type!r} {frame.data} {frame.extra})"
            )
        message: Message = json.loads(frame.data)
        return message

    async def expect(self, kind: str) -> Message:
        """The next message of type ``kind``, skipping others."""
        while True:
            message = await self.receive()
            if message["type"] == kind:
                return message


async def connect_bots(
    http: aiohttp.ClientSession, url: str, names: list[str], version: int
) -> list[Bot]:
    """Connect and welcome a bot per name, a hundred at a time."""
    bots: list[Bot] = []
    for start in range(0, len(names), CONNECT_AT_ONCE):
        chunk = names[start : start + CONNECT_AT_ONCE]
        bots += await asyncio.gather(*(Bot.connect(http, url, name, version) for name in chunk))
    return bots


async def play_pair(
    first: Bot, second: Bot, tally: Tally, stop: asyncio.Event, seek: Message, seed: int
) -> None:
    """Play games between ``first`` and ``second`` until ``stop`` is set."""
    rng = random.Random(seed)
    while not stop.is_set():
        await first.send({**seek, "type": "seek"})
        seek_id = (await first.expect("seek_created"))["seek"]["seek_id"]
        await second.send({"type": "accept_seek", "seek_id": seek_id})
        await asyncio.gather(
            play_side(first, tally, stop, rng), play_side(second, tally, stop, rng)
        )


async def play_side(bot: Bot, tally: Tally, stop: asyncio.Event, rng: random.Random) -> None:
    """Play one side of one game until it ends or ``stop`` is set."""
    await play_seated(bot, await bot.expect("room_snapshot"), tally, stop, rng)


async def play_seated(
    bot: Bot, snapshot: Message, tally: Tally, stop: asyncio.Event, rng: random.Random
) -> None:
    """Play one side of the game whose ``room_snapshot`` the bot has just received."""
    tally.seated += 1
    room_id, side = snapshot["room_id"], snapshot["your_side"]
    position, legal = snapshot["position"], snapshot["legal_moves"]
    answered = -1
    while True:
        ply = position["ply"]
        if position["to_move"] == side and legal and ply != answered and not stop.is_set():
            answered = ply
            tally.sent_at[(room_id, ply)] = time.perf_counter()
            await bot.send(move_message(room_id, rng.choice(legal), ply))
        if stop.is_set():
            return
        message = await bot.receive()
        if message["type"] == "move_made":
            if message["side"] != side:
                tally.arrived(message["room_id"], message["ply"])
            position, legal = message["position"], message.get("legal_moves", ())
        elif message["type"] == "game_over":
            if side == 1:  # count each game once
                tally.games += 1
            return
        elif message["type"] == "error":
            tally.errors.append(message["code"])
            if message["code"] == "rate_limited":  # the move was dropped: send it again
                answered = -1
                await asyncio.sleep(RETRY_S)


async def play_ai(bot: Bot, seek: Message, stop: asyncio.Event, rng: random.Random) -> int:
    """Play games against the server's AI until ``stop``; the AI moves received."""
    answers = 0
    while not stop.is_set():
        await bot.send({**seek, "type": "seek"})
        snapshot = await bot.expect("room_snapshot")
        room_id, side = snapshot["room_id"], snapshot["your_side"]
        position, legal = snapshot["position"], snapshot["legal_moves"]
        while not stop.is_set():
            if position["to_move"] == side and legal:
                await bot.send(move_message(room_id, rng.choice(legal), position["ply"]))
            message = await bot.receive()
            if message["type"] == "game_over":
                break
            if message["type"] == "move_made":
                answers += message["side"] != side
                position, legal = message["position"], message.get("legal_moves", ())
    return answers


def move_message(room_id: str, move: str, ply: int) -> Message:
    """A ``move`` message."""
    return {"type": "move", "room_id": room_id, "move": move, "ply": ply}
