"""Who is online in the terminal client: the lobby model, and the online pane against a
real server as players arrive, play and leave."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestServer
from textual.widgets import Static

from gamut_client.connection import Connection
from gamut_client.link import Backoff
from gamut_client.tui.app import GamutApp
from gamut_client.tui.lobby_model import LobbyModel, people_lines
from gamut_protocol import (
    AcceptSeek,
    LobbySnapshot,
    OnlinePlayer,
    Presence,
    Resign,
    RoomSnapshot,
    RoomSummary,
    RoomUpdated,
    Seat,
    Seek,
    SeekCreated,
)
from tests.client.tui_pilot import SIZE, until
from tests.server.live import live_server, server_config


def person(name: str, kind: str = "human", *playing: str) -> OnlinePlayer:
    """An entry of the online list."""
    return OnlinePlayer.model_validate({"name": name, "kind": kind, "playing": playing})


def crusher_room(room_id: str) -> RoomSummary:
    """A running Crusher room between ada and bluebot."""
    players = (Seat(name="ada", kind="human"), Seat(name="bluebot", kind="bot"))
    return RoomSummary(room_id=room_id, game="crusher", title="Crusher n=3", players=players)


def test_the_online_pane_follows_arrivals_games_and_departures() -> None:
    lobby = LobbyModel(me="ada")
    lobby.apply(LobbySnapshot(online=2, present=(person("ada"), person("bluebot", "bot"))))
    assert people_lines(lobby) == ["2 online", "ada (you)", "bluebot [bot]"]
    assert lobby.apply(Presence(player=person("carol"), online=3))
    assert people_lines(lobby) == ["3 online", "ada (you)", "carol", "bluebot [bot]"]
    lobby.apply(RoomUpdated(room=crusher_room("r4")))
    lobby.apply(Presence(player=person("ada", "human", "r4"), online=3))
    lobby.apply(Presence(player=person("bluebot", "bot", "r4"), online=3))
    lobby.apply(Presence(player=person("carol", "human", "r7", "r9"), online=3))
    assert people_lines(lobby) == [
        "3 online",
        "ada (you) · playing Crusher n=3",
        "carol · playing 2 games",
        "bluebot [bot] · playing Crusher n=3",
    ]
    lobby.apply(Presence(player=person("bluebot", "bot"), left=True, online=2))
    assert people_lines(lobby)[0] == "2 online"
    assert "bluebot [bot]" not in " ".join(people_lines(lobby))


def test_a_version_1_server_shows_the_players_seen_about() -> None:
    lobby = LobbyModel(me="ada")
    lobby.apply(LobbySnapshot(online=5, rooms=(crusher_room("r4"),)))
    assert people_lines(lobby) == ["5 online", "about: ada, bluebot"]


def test_a_crowd_is_cut_short_with_people_first() -> None:
    lobby = LobbyModel(me="ada")
    bots = tuple(person(f"bot{number}", "bot") for number in range(10))
    people = tuple(person(f"p{number}") for number in range(5))
    lobby.apply(LobbySnapshot(online=40, present=bots + people))
    lines = people_lines(lobby, shown=6)
    assert lines == ["40 online", "p0", "p1", "p2", "p3", "p4", "bot0 [bot]", "and 9 more"]


@pytest_asyncio.fixture
async def server(tmp_path: Path) -> AsyncIterator[TestServer]:
    async with live_server(server_config(tmp_path)) as running:
        yield running


@pytest.mark.timeout(60)
async def test_the_lobby_shows_who_is_online_and_playing(server: TestServer) -> None:
    url = str(server.make_url("/ws"))
    app = GamutApp(url, "fay", backoff=Backoff(initial=0.05, maximum=0.2, jitter=0.0))
    async with app.run_test(size=SIZE) as pilot:

        def pane() -> list[str]:
            """The online pane's lines as drawn (markup would swallow a ``[bot]``)."""
            return str(app.screen.query_one("#people", Static).render()).splitlines()

        await until(pilot, lambda: pane()[1:] == ["fay (you)"], "fay alone online")
        gus = await Connection.open(url, "gus", heartbeat=None)
        hal = await Connection.open(url, "hal", kind="bot", heartbeat=None)
        try:
            await until(pilot, lambda: pane()[0] == "3 online", "three online")
            assert pane()[1:] == ["fay (you)", "gus", "hal [bot]"]

            created = await gus.request(Seek(game="network", side=0))
            assert isinstance(created, SeekCreated)
            started = await hal.request(AcceptSeek(seek_id=created.seek.seek_id))
            assert isinstance(started, RoomSnapshot)
            playing = ["fay (you)", "gus · playing Network", "hal [bot] · playing Network"]
            await until(pilot, lambda: pane()[1:] == playing, "gus and hal playing")

            await gus.send(Resign(room_id=started.room_id))
            await until(pilot, lambda: pane()[2] == "gus", "the game over")
            await hal.close()
            await until(pilot, lambda: pane() == ["2 online", "fay (you)", "gus"], "hal gone")
        finally:
            await gus.close()
            await hal.close()
