"""A pairing survives its director stopping half-way: the server stops at the step that
opens the game's room (before it, or right after), as a node dying there would, and the
director's next look completes that pairing: every room a player is told of or seated in
is the tournament's game, one room per game, and the tournament finishes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from gamut_client.bots import BotRunner, Plan, load_bot
from gamut_client.connection import connect as connect_bot
from gamut_server.core.driver import Driver
from gamut_server.rooms import RoomConfig, RoomSpec, Who
from gamut_server.tournaments_live.http import TOURNAMENTS
from tests.server.live import Client, close_all, live_server, server_config
from tests.server.test_ladder_server import register
from tests.server.test_tournaments import (
    bot,
    create,
    details,
    enter,
    play_through,
    start_now,
    wait_finished,
)


@pytest.fixture
async def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[TestServer]:
    """A live server whose director looks every 20 ms."""
    monkeypatch.setenv("GAMUT_TOURNAMENT_TICK_MS", "20")
    async with live_server(server_config(tmp_path)) as running:
        yield running


class StoppedError(Exception):
    """The directing node stops here."""


OpenRoom = Callable[[str, RoomSpec, Sequence[Who], Any, RoomConfig | None], Awaitable[None]]
"""The driver's ``open_room``."""


def first_open(driver: Driver, first: Callable[[OpenRoom], OpenRoom]) -> list[str]:
    """Make ``driver`` open its first room through ``first(open_room)`` (given the real
    ``open_room``), and the others as usual; the id of the first it is asked to open."""
    real = driver.open_room
    seen: list[str] = []

    async def open_room(
        room_id: str,
        spec: RoomSpec,
        members: Sequence[Who],
        reply_to: Any = None,
        config: RoomConfig | None = None,
    ) -> None:
        if seen:
            return await real(room_id, spec, members, reply_to, config)
        seen.append(room_id)
        return await first(real)(room_id, spec, members, reply_to, config)

    driver.open_room = open_room  # type: ignore[method-assign]
    return seen


def stop_once(driver: Driver, when: str) -> list[str]:
    """Make ``driver`` stop at the first room it opens: ``before`` opening it, ``after``
    (once it is open), or ``claimed``: refused, the room's id still claimed by a node
    that died opening it. The ids of the rooms it stopped at."""

    def stopping(real: OpenRoom) -> OpenRoom:
        async def open_room(*args: Any) -> None:
            if when == "claimed":
                raise RuntimeError(f"room {args[0]} has an owner already")
            if when == "after":
                await real(*args)
            raise StoppedError(f"the node stops at room {args[0]}")

        return open_room

    return first_open(driver, stopping)


@pytest.mark.parametrize("when", ["before", "after", "claimed"])
async def test_a_pairing_interrupted_at_its_room_is_completed(
    server: TestServer, when: str
) -> None:
    (ada, token), (bob, _) = [await bot(server, name) for name in ("ada", "bob")]
    made = await create(server, token, "ada", kind="round_robin", starts_in=600)
    for client in (ada, bob):
        assert (await enter(client, made["id"]))["joined"] is True
    service = server.app[TOURNAMENTS]
    stopped = stop_once(service.driver, when)
    start_now(server)
    played = await asyncio.gather(play_through(ada, made["id"]), play_through(bob, made["id"]))
    final = await wait_finished(server, made["id"])
    assert len(stopped) == 1
    games = {game["game_id"] for game in final["games"]}
    assert len(games) == len(final["games"]) == 2
    assert {game["status"] for game in final["games"]} == {"finished"}
    for client, rooms in zip((ada, bob), played, strict=True):
        assert set(rooms) == games
        assert told(client) <= games, "a player was told of a room that is no game"
        assert seated(client) <= games, "a player was seated in a room that is no game"
    assert stopped[0] in games
    await close_all([ada, bob])


@pytest.mark.parametrize("when", ["before", "after"])
async def test_an_arena_pairing_interrupted_at_its_room_is_completed(
    server: TestServer, when: str
) -> None:
    (ada, token), (bob, _) = [await bot(server, name) for name in ("ada", "bob")]
    made = await create(server, token, "ada", minutes=600, starts_in=600)
    for client in (ada, bob):
        assert (await enter(client, made["id"]))["joined"] is True
    service = server.app[TOURNAMENTS]
    stopped = stop_once(service.driver, when)
    start_now(server)
    players = asyncio.gather(play_through(ada, made["id"]), play_through(bob, made["id"]))
    while len((await details(server, made["id"]))["games"]) < 2:
        await asyncio.sleep(0.02)
    service.wall = lambda: datetime.now(UTC) + timedelta(days=2)
    played = await players
    final = await wait_finished(server, made["id"])
    games = [game["game_id"] for game in final["games"]]
    assert games[0] == stopped[0], "the first pairing is the room first opened"
    assert len(set(games)) == len(games)
    for client, rooms in zip((ada, bob), played, strict=True):
        assert set(rooms) == set(games)
        assert told(client) <= set(games), "a player was told of a room that is no game"
        assert seated(client) <= set(games), "a player was seated in a room that is no game"
    await close_all([ada, bob])


def seat_nobody_once(driver: Driver) -> list[str]:
    """Make ``driver`` open the first room with no connection seated in it, as a leader
    does to whose node the players' nodes have not signed their connections in yet;
    the ids of such rooms."""

    def bare(real: OpenRoom) -> OpenRoom:
        async def open_room(room_id: str, spec: RoomSpec, _: Sequence[Who], *rest: Any) -> None:
            await real(room_id, spec, [], *rest)

        return open_room

    return first_open(driver, bare)


async def test_sdk_bots_go_to_the_room_they_are_told_of(server: TestServer) -> None:
    tokens = {name: await register(server, name) for name in ("ada", "bob")}
    made = await create(
        server, tokens["ada"], "ada", kind="round_robin", starts_in=600, options={"size": 9}
    )
    bare = seat_nobody_once(server.app[TOURNAMENTS].driver)
    url = str(server.make_url("/ws"))
    async with (
        connect_bot(url, "ada", kind="bot", token=tokens["ada"], heartbeat=None) as ada,
        connect_bot(url, "bob", kind="bot", token=tokens["bob"], heartbeat=None) as bob,
    ):
        plan = Plan(games=2, tournament=made["id"])
        runners = [BotRunner(load_bot("random"), conn, plan) for conn in (ada, bob)]
        playing = [asyncio.create_task(runner.run()) for runner in runners]
        while len((await details(server, made["id"]))["entrants"]) < 2:
            await asyncio.sleep(0.02)
        start_now(server)
        summaries = await asyncio.wait_for(asyncio.gather(*playing), 90)
    final = await wait_finished(server, made["id"])
    assert len(bare) == 1
    first = next(game for game in final["games"] if game["game_id"] == bare[0])
    assert first["status"] == "finished"
    for summary in summaries:
        assert bare[0] in {view.room_id for view in summary.games}
        assert {view.result.reason for view in summary.games if view.result} <= {
            "five",
            "board_full",
        }


def told(client: Client) -> set[str]:
    """The rooms ``client`` was told it is paired in."""
    return {
        m["room_id"]
        for m in client.received
        if m["type"] == "tournament_status" and m.get("room_id") is not None
    }


def seated(client: Client) -> set[str]:
    """The rooms ``client`` was seated in."""
    return {
        m["room_id"]
        for m in client.received
        if m["type"] == "room_snapshot" and m.get("your_side") is not None
    }
