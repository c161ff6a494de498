"""The bare relay the server benchmark compares Gamut with: paired sockets, frames forwarded.

The relay is an aiohttp server that does the least a game server must: it pairs the two
sockets of a game (by the path ``/relay/{game}``) and forwards every text frame from
one to the other, unread. Nothing is parsed, checked or stored. Its players replay
random Network games recorded beforehand, sending the same ``move`` messages Gamut's
bots send, so the frames are alike in number and size.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiohttp
from aiohttp import web
from loadgen import Tally, percentile, server_process

from gamut_engine import load_game

CONNECT_AT_ONCE = 100
"""Connections opened concurrently while setting up."""

Handler = Callable[[web.Request], Awaitable[web.WebSocketResponse]]

RECORDED_GAMES = 16
"""Random Network games the relay players replay in turn."""


async def relay_server() -> None:
    """Serve the relay on a free loopback port (run in its own process)."""
    waiting: dict[str, web.WebSocketResponse] = {}
    partners: dict[web.WebSocketResponse, web.WebSocketResponse] = {}

    async def relay(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=1 << 20)
        await ws.prepare(request)
        game = request.match_info["game"]
        other = waiting.pop(game, None)
        if other is None:
            waiting[game] = ws
        else:
            partners[ws], partners[other] = other, ws
        async for frame in ws:
            partner = partners.get(ws)
            if partner is not None:
                await partner.send_str(frame.data)
        partners.pop(ws, None)
        return ws

    await _serve("/relay", "/relay/{game}", relay)


def recorded_games(seed: int = 1, name: str = "network") -> list[list[str]]:
    """Random games of ``name`` played to their end (or 400 plies), as move texts."""
    game = load_game(name, max_plies=400)
    rng = random.Random(seed)
    games = []
    for _ in range(RECORDED_GAMES):
        state, moves = game.initial_state(), []
        while game.outcome(state) is None:
            move = rng.choice(game.legal_moves(state))
            moves.append(game.format_move(move))
            state = game.play(state, move)
        games.append(moves)
    return games


async def relay_pair(
    sockets: tuple[aiohttp.ClientWebSocketResponse, aiohttp.ClientWebSocketResponse],
    tally: Tally,
    stop: asyncio.Event,
    games: list[list[str]],
    pair: int,
) -> None:
    """Replay recorded games over one relayed pair until ``stop`` is set."""
    number = pair
    while not stop.is_set():
        moves = games[number % len(games)]
        room_id = f"r{pair}-{number}"
        await asyncio.gather(
            _relay_side(sockets[0], 0, moves, room_id, tally, stop),
            _relay_side(sockets[1], 1, moves, room_id, tally, stop),
        )
        number += 1


async def _relay_side(
    ws: aiohttp.ClientWebSocketResponse,
    side: int,
    moves: list[str],
    room_id: str,
    tally: Tally,
    stop: asyncio.Event,
) -> None:
    """Play one side of one recorded game: send our moves, read the opponent's."""
    for ply, move in enumerate(moves):
        if stop.is_set():
            return
        if ply % 2 == side:
            tally.sent_at[(room_id, ply)] = time.perf_counter()
            message = {"type": "move", "room_id": room_id, "move": move, "ply": ply}
            await ws.send_str(json.dumps(message))
            continue
        frame = await ws.receive()
        if frame.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"relay socket closed ({frame.type!r})")
        received = json.loads(frame.data)
        tally.arrived(received["room_id"], received["ply"])


async def echo_server() -> None:
    """Serve a bare aiohttp WebSocket echo on a free loopback port (run in a subprocess)."""

    async def echo(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for frame in ws:
            await ws.send_str(frame.data)
        return ws

    await _serve("/ws", "/ws", echo)


async def _serve(base: str, route: str, handler: Handler) -> None:
    """Serve ``handler`` at ``route`` on a free loopback port, forever; print the URL."""
    app = web.Application()
    app.router.add_get(route, handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    listener = socket.create_server(("127.0.0.1", 0), backlog=1024)
    await web.SockSite(runner, listener).start()
    print(f"connect to ws://127.0.0.1:{listener.getsockname()[1]}{base}", flush=True)
    await asyncio.Event().wait()


async def run_echo(clients: int, seconds: float, script: str) -> dict[str, Any]:
    """Round trips of ``clients`` concurrent echo clients, each sending 200 bytes in turn."""
    command = [sys.executable, script, "--echo-server"]
    connector = aiohttp.TCPConnector(limit=0)
    async with (
        server_process(command, r"connect to (ws://\S+/ws)") as server,
        aiohttp.ClientSession(connector=connector) as http,
    ):
        url = server.address
        sockets = []
        for start in range(0, clients, CONNECT_AT_ONCE):
            count = min(CONNECT_AT_ONCE, clients - start)
            sockets += await asyncio.gather(*(http.ws_connect(url) for _ in range(count)))
        times: list[float] = []
        deadline = time.perf_counter() + seconds
        payload = "x" * 200

        async def ping_pong(ws: aiohttp.ClientWebSocketResponse) -> None:
            while time.perf_counter() < deadline:
                sent = time.perf_counter()
                await ws.send_str(payload)
                await ws.receive()
                times.append((time.perf_counter() - sent) * 1000)

        await asyncio.gather(*(ping_pong(ws) for ws in sockets))
        await asyncio.gather(*(ws.close() for ws in sockets))
    return {
        "clients": clients,
        "round_trips_per_s": len(times) / seconds,
        "p50_ms": percentile(times, 0.5),
        "p99_ms": percentile(times, 0.99),
    }


async def print_echo(counts: Sequence[int], seconds: float, script: str) -> None:
    """Measure and print the raw aiohttp echo for each number in ``counts``."""
    print("\nRaw aiohttp WebSocket echo on the same machine (200-byte frames)")
    print(f"{'clients':>7} {'trips/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
    for clients in counts:
        echo = await run_echo(clients, seconds, script)
        print(
            f"{echo['clients']:>7} {echo['round_trips_per_s']:>9,.0f} "
            f"{echo['p50_ms']:>8.2f} {echo['p99_ms']:>8.2f}",
            flush=True,
        )
