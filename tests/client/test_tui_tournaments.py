"""The terminal client's lobby lists the server's tournaments."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestServer

from gamut_client.tui.app import GamutApp
from gamut_client.tui.lobby_model import tournament_lines
from gamut_client.tui.session import Session
from gamut_protocol import Join, TournamentStatus, Welcome
from tests.client.tui_pilot import SIZE, text_of, until
from tests.client.tui_support import network, snapshot
from tests.server.test_ladder_server import http, register


def arena(name: str, number: int) -> dict[str, object]:
    return {"id": f"t{number}", "name": name, "kind": "arena", "game": "connect5", "players": 3}


def test_the_pane_lists_running_then_upcoming_tournaments() -> None:
    found = {
        "running": [arena("Now", 1)],
        "upcoming": [arena("Later", 2), arena("Sooner", 3)],
        "finished": [arena("Over", 4)],
    }
    lines = tournament_lines(found)
    assert lines[0] == "Tournaments"
    assert lines[1::2] == ["running: Now", "soon: Sooner", "soon: Later"]
    assert lines[2] == "  arena · connect5 · 3 in · t1"
    assert tournament_lines({"running": [], "upcoming": [], "finished": []})[1] == (
        "none running or coming"
    )
    assert tournament_lines(None) == ["Tournaments: not listed"]
    many = {"running": [arena(f"A{n}", n) for n in range(8)], "upcoming": []}
    assert tournament_lines(many, shown=2)[-1] == "and 6 more"


def paired(room_id: str | None, message: str = "round 1: ada against bob") -> TournamentStatus:
    """A ``tournament_status`` pairing this player in ``room_id``."""
    return TournamentStatus(
        tournament="t1", status="running", joined=True, room_id=room_id, message=message
    )


def test_the_session_follows_the_latest_tournament_pairing() -> None:
    session = Session()
    session.welcomed(Welcome(protocol=6, server="test", name="ada", kind="human"))
    first = session.handle(paired("r1"), 0.0)
    assert first.refresh == (Join(room_id="r1", role="player"),)
    assert first.notice == "Tournament: round 1: ada against bob"
    again = session.handle(paired("r2", "paired: ada against bob"), 1.0)
    assert again.refresh == (Join(room_id="r2", role="player"),)
    assert session.requested == {"r2"}, "the room that never came is awaited no more"
    assert session.handle(snapshot(network(), room_id="r2"), 2.0).open_room == "r2"
    assert session.handle(paired("r2"), 3.0).refresh == ()
    assert session.handle(paired(None, "ada beat bob (resign)"), 4.0).refresh == ()


@pytest.mark.asyncio(loop_scope="module")
async def test_the_lobby_shows_a_tournament_of_the_server(server: TestServer) -> None:
    token = await register(server, "tui-maker")
    body = {
        "account": "tui-maker",
        "name": "Terminal cup",
        "game": "connect5",
        "kind": "round_robin",
        "time_control": {"kind": "per_move", "move_ms": 10000},
        "starts_in": 3600,
    }
    status, made = await http(server, "POST", "/api/tournaments", token, **body)
    assert status == 201, made
    app = GamutApp(str(server.make_url("/ws")), "tui-viewer")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.session.link.up, "the welcome")
        await until(
            pilot, lambda: "soon: Terminal cup" in text_of(app.screen, "#tournaments"), "the pane"
        )
        assert f"round robin · connect5 · 0 in · {made['id']}" in text_of(
            app.screen, "#tournaments"
        )
