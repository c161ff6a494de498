"""A pairing survives its director stopping half-way: the server stops at the step that
opens the game's room (before it, or right after), as a node dying there would, and the
director's next look completes that pairing: every room a player is told of or seated in
is the tournament's game, one room per game, and the tournament finishes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from gamut_server.core.driver import Driver
from gamut_server.rooms import RoomConfig, RoomSpec, Who
from gamut_server.tournaments_live.http import TOURNAMENTS
from tests.server.live import Client, close_all, live_server, server_config
from tests.server.test_tournaments import (
    bot,
    create,
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


def stop_once(driver: Driver, after_opening: bool) -> list[str]:
    """Make ``driver`` stop the first room it opens (before opening it, or once it is
    open); the ids of the rooms it stopped at."""
    real = driver.open_room
    stopped: list[str] = []

    async def open_room(
        room_id: str,
        spec: RoomSpec,
        members: Sequence[Who],
        reply_to: Any = None,
        config: RoomConfig | None = None,
    ) -> None:
        if not stopped and after_opening:
            await real(room_id, spec, members, reply_to, config)
        if not stopped:
            stopped.append(room_id)
            raise StoppedError(f"the node stops at room {room_id}")
        await real(room_id, spec, members, reply_to, config)

    driver.open_room = open_room  # type: ignore[method-assign]
    return stopped


@pytest.mark.parametrize("after_opening", [False, True], ids=["before", "after"])
async def test_a_pairing_interrupted_at_its_room_is_completed(
    server: TestServer, after_opening: bool
) -> None:
    (ada, token), (bob, _) = [await bot(server, name) for name in ("ada", "bob")]
    made = await create(server, token, "ada", kind="round_robin", starts_in=600)
    for client in (ada, bob):
        assert (await enter(client, made["id"]))["joined"] is True
    service = server.app[TOURNAMENTS]
    stopped = stop_once(service.driver, after_opening)
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
