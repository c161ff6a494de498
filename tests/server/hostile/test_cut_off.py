"""An address whose connection was closed for flooding is cut off for a while: its new
connections are refused before the WebSocket opens, with a sentence saying how long,
and other addresses are not; sockets that never speak cost no connection state."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import aiohttp

from gamut_server import keys
from gamut_server.config import ServerConfig
from gamut_server.edge.addresses import CUT_OFF_MS, MAX_CUT_OFF_MS, AddressLimits, AddressRules
from tests.server.live import Client, close_all, connect, live_server, server_config

HOSTILE = "127.0.0.2"


async def from_hostile(url: str) -> Client:
    """A WebSocket opened from :data:`HOSTILE`."""
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(HOSTILE, 0)))
    try:
        ws = await session.ws_connect(url, heartbeat=None)
    except BaseException:
        await session.close()
        raise
    return Client(session, ws)


async def test_an_address_closed_for_garbage_is_refused_before_the_websocket(
    tmp_path: Path,
) -> None:
    async with live_server(server_config(tmp_path)) as server:
        url = str(server.make_url("/ws"))
        flooder = await from_hostile(url)
        with contextlib.suppress(ConnectionError, RuntimeError):
            while not flooder.ws.closed:
                await flooder.send_raw("not json {")
                await asyncio.sleep(0)
        await flooder.close()
        async with (
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(HOSTILE, 0))) as http,
            http.get(url, headers={"Upgrade": "websocket", "Connection": "Upgrade",
                                   "Sec-WebSocket-Version": "13",
                                   "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}) as answer,
        ):  # fmt: skip
            assert answer.status == 429
            body = await answer.json()
        assert body["error"] == "rate_limited"
        assert body["message"].startswith(
            "a connection from your address was closed for flooding: wait"
        )
        assert body["message"].endswith("s before connecting again")
        bystander = await connect(server, "ada")
        await bystander.send({"type": "ping", "id": "p"})
        await bystander.expect("pong", reply_to="p")
        await close_all([bystander])


async def test_sockets_that_never_speak_hold_no_connection(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path)) as server:
        hub = server.app[keys.HUB]
        silent = [await connect(server) for _ in range(5)]
        while hub.addresses.open_from("127.0.0.1") < 5:
            await asyncio.sleep(0.01)
        assert hub.connections == {}
        await silent[0].hello("ada")
        assert [conn.name for conn in hub.connections.values()] == ["ada"]
        await close_all(silent)


def test_a_cut_off_doubles_with_each_offence_and_is_forgiven() -> None:
    limits = AddressLimits()
    assert limits.cut_off("a", 0) == CUT_OFF_MS
    assert limits.open("a", CUT_OFF_MS - 1) is not None
    assert limits.cut_off("a", 1000) == CUT_OFF_MS - 1000  # the same wave: no longer
    assert limits.open("a", CUT_OFF_MS) is None
    assert limits.open("b", 0) is None
    assert limits.cut_off("a", CUT_OFF_MS) == 2 * CUT_OFF_MS
    now = 3 * CUT_OFF_MS
    for _ in range(10):
        length = limits.cut_off("a", now)
        now += length
    assert length == MAX_CUT_OFF_MS
    assert limits.cut_off("a", now + 600_000) == CUT_OFF_MS


async def test_a_socket_that_never_spoke_is_closed_as_the_server_shuts_down(
    tmp_path: Path,
) -> None:
    async with live_server(server_config(tmp_path)) as server:
        hub = server.app[keys.HUB]
        silent = await connect(server)
        while not hub.silent:
            await asyncio.sleep(0.01)
        await hub.shutdown()
        frame = await silent.ws.receive(timeout=5)
        assert frame.type == aiohttp.WSMsgType.CLOSE
        assert (frame.data, frame.extra) == (1001, "the server is shutting down")
        await close_all([silent])


def test_the_first_cut_off_is_a_setting_and_can_be_forgiven() -> None:
    limits = AddressLimits(AddressRules(cut_off=2_000))
    assert limits.cut_off("a", 0) == 2_000
    assert limits.open("a", 1_000) is not None
    limits.forgive("a")
    assert limits.open("a", 1_000) is None
    assert limits.cut_off("a", 1_000) == 2_000
    assert ServerConfig().with_limit("cut_off=700").addresses.cut_off == 700
