"""The client connection against a small scripted server on a real socket."""

from __future__ import annotations

import asyncio
import random

import pytest

from gamut_client.bots.offline import describe, position
from gamut_client.connection import Connection, connect
from gamut_client.link import (
    Backoff,
    ClientClosedError,
    ConnectError,
    Disconnected,
    HelloRefusedError,
    Reconnected,
    RequestError,
)
from gamut_engine import load_game
from gamut_protocol import (
    ChatLine,
    ErrorMessage,
    GameList,
    Hello,
    Join,
    ListGames,
    LobbySnapshot,
    Move,
    Resume,
    RoomSnapshot,
    Seat,
)
from tests.client.fake_server import FakeServer

pytestmark = pytest.mark.timeout(30)

FAST = Backoff(initial=0.01, factor=1.0, jitter=0.0, attempts=50)


def snapshot(room_id: str = "r1", seq: int = 0) -> RoomSnapshot:
    """A new Connect Five 5×5 room where ada plays X."""
    game = load_game("connect5", size=5)
    state = game.initial_state()
    return RoomSnapshot(
        room_id=room_id,
        seq=seq,
        game=describe(game),
        players=(Seat(name="ada", kind="human"), Seat(name="bob", kind="human")),
        your_side=0,
        position=position(game, state),
        legal_moves=tuple(game.format_move(m) for m in game.legal_moves(state)),
    )


def chat(seq: int, room_id: str = "r1") -> ChatLine:
    """A numbered room chat line."""
    return ChatLine(room_id=room_id, seq=seq, author="bob", text=f"line {seq}")


async def next_message(connection: Connection) -> object:
    """The next item of the stream, skipping nothing."""
    return await asyncio.wait_for(connection.receive(), 10)


async def test_hello_and_welcome() -> None:
    server = FakeServer()
    async with server.running(), connect(server.url, "ada", kind="bot", heartbeat=None) as conn:
        hello = server.hellos[0]
        assert isinstance(hello, Hello)
        assert (hello.name, hello.kind, hello.lobby) == ("ada", "bot", True)
        assert conn.welcome.name == "ada"
        assert conn.name == "ada"
        assert conn.connected


async def test_messages_flow_both_ways() -> None:
    server = FakeServer()
    async with server.running(), connect(server.url, "ada", heartbeat=None) as conn:
        await server.send(LobbySnapshot(online=3))
        received = await next_message(conn)
        assert isinstance(received, LobbySnapshot)
        assert received.online == 3
        await conn.send(Move(room_id="r1", move="c3", ply=0))
        move = await server.expect(Move)
        assert (move.room_id, move.move, move.ply) == ("r1", "c3", 0)


async def test_request_returns_the_reply_and_raises_on_error() -> None:
    server = FakeServer()
    async with server.running(), connect(server.url, "ada", heartbeat=None) as conn:
        asking = asyncio.create_task(conn.request(ListGames()))
        request = await server.expect(ListGames)
        assert request.id is not None
        await server.send(GameList(reply_to=request.id, games=()))
        reply = await asyncio.wait_for(asking, 10)
        assert isinstance(reply, GameList)
        assert reply.reply_to == request.id

        failing = asyncio.create_task(conn.request(Join(room_id="r9")))
        join = await server.expect(Join)
        error = ErrorMessage(
            reply_to=join.id, code="unknown_room", message="no room r9", request="join"
        )
        await server.send(error)
        with pytest.raises(RequestError) as raised:
            await asyncio.wait_for(failing, 10)
        assert raised.value.error.code == "unknown_room"


async def test_reconnects_and_resumes_every_room_without_repeats() -> None:
    server = FakeServer()
    async with server.running(), connect(server.url, "ada", heartbeat=None, backoff=FAST) as conn:
        await server.send(snapshot("r1"))
        await server.send(snapshot("r2", seq=4))
        for seq in (1, 2):
            await server.publish(chat(seq))
        for _ in range(4):
            await next_message(conn)
        server.log(chat(3))
        server.drop()
        assert isinstance(await next_message(conn), Disconnected)
        reconnected = await next_message(conn)
        assert isinstance(reconnected, Reconnected)
        assert set(reconnected.resumed) == {"r1", "r2"}
        assert server.hellos[1].token == "g-1"
        resumes = {m.room_id: m.after_seq for m in [await server.expect(Resume) for _ in "12"]}
        assert resumes == {"r1": 2, "r2": 4}
        replayed = await next_message(conn)
        assert isinstance(replayed, ChatLine)
        assert replayed.seq == 3
        await server.send(chat(2))
        await server.send(chat(4))
        latest = await next_message(conn)
        assert isinstance(latest, ChatLine)
        assert latest.seq == 4
        assert conn.rooms == {"r1": 4, "r2": 4}


async def test_a_gap_asks_for_the_missing_events_once() -> None:
    server = FakeServer()
    async with server.running(), connect(server.url, "ada", heartbeat=None) as conn:
        await server.send(snapshot("r1", seq=3))
        await next_message(conn)
        server.log(chat(4))
        await server.publish(chat(5))
        resume = await server.expect(Resume)
        assert (resume.room_id, resume.after_seq) == ("r1", 3)
        seqs = [getattr(await next_message(conn), "seq", None) for _ in range(2)]
        assert seqs == [4, 5]


async def test_rooms_in_the_welcome_are_joined_after_a_reconnection() -> None:
    server = FakeServer()
    async with server.running(), connect(server.url, "ada", heartbeat=None, backoff=FAST) as conn:
        server.welcome_rooms = ("r7",)
        server.drop()
        assert isinstance(await next_message(conn), Disconnected)
        reconnected = await next_message(conn)
        assert isinstance(reconnected, Reconnected)
        assert reconnected.resumed == ("r7",)
        join = await server.expect(Join)
        assert (join.room_id, join.role) == ("r7", "player")


async def test_an_unanswered_heartbeat_drops_the_link_and_reconnects() -> None:
    server = FakeServer()
    server.answer_pings = False
    async with server.running(), connect(server.url, "ada", heartbeat=0.05, backoff=FAST) as conn:
        dropped = await next_message(conn)
        assert isinstance(dropped, Disconnected)
        assert "ping" in dropped.reason
        server.answer_pings = True
        assert isinstance(await next_message(conn), Reconnected)
        assert await conn.ping(timeout=10) >= 0


async def test_messages_sent_while_down_go_out_after_reconnecting() -> None:
    server = FakeServer()
    slow = Backoff(initial=0.2, factor=1.0, jitter=0.0, attempts=50)
    async with server.running(), connect(server.url, "ada", heartbeat=None, backoff=slow) as conn:
        server.drop()
        assert isinstance(await next_message(conn), Disconnected)
        assert not conn.connected
        await asyncio.wait_for(conn.send(Move(room_id="r1", move="a1", ply=0)), 10)
        assert len(server.hellos) == 2
        move = await server.expect(Move)
        assert move.move == "a1"


async def test_a_refused_hello_is_raised() -> None:
    server = FakeServer()
    server.refusals.append(ErrorMessage(code="bad_token", message="unknown token", fatal=True))
    async with server.running():
        with pytest.raises(HelloRefusedError) as refused:
            await Connection.open(server.url, "ada", token="nope", heartbeat=None)
        assert refused.value.error.code == "bad_token"


async def test_name_taken_is_retried_but_bad_token_ends_the_stream() -> None:
    server = FakeServer()
    async with server.running(), connect(server.url, "ada", heartbeat=None, backoff=FAST) as conn:
        server.refusals.append(ErrorMessage(code="name_taken", message="taken"))
        server.drop()
        assert isinstance(await next_message(conn), Disconnected)
        assert isinstance(await next_message(conn), Reconnected)
        assert len(server.hellos) == 3

        server.refusals.append(ErrorMessage(code="bad_token", message="revoked"))
        server.drop()
        assert isinstance(await next_message(conn), Disconnected)
        with pytest.raises(HelloRefusedError):
            await next_message(conn)
        with pytest.raises(HelloRefusedError):
            await conn.send(Move(room_id="r1", move="a1", ply=0))


async def test_gives_up_after_the_last_attempt() -> None:
    server = FakeServer()
    few = Backoff(initial=0.01, jitter=0.0, attempts=2)
    async with server.running():
        conn = await Connection.open(server.url, "ada", heartbeat=None, backoff=few)
        server.refusals.extend([ErrorMessage(code="unavailable", message="busy")] * 2)
        server.drop()
        assert isinstance(await next_message(conn), Disconnected)
        with pytest.raises(ConnectError, match="2 attempts"):
            await next_message(conn)
        await conn.close()


async def test_close_ends_the_stream_and_sending() -> None:
    server = FakeServer()
    async with server.running():
        conn = await Connection.open(server.url, "ada", heartbeat=None)
        await server.send(LobbySnapshot())
        await asyncio.sleep(0)
        await conn.close()
        items = [item async for item in conn]
        assert all(isinstance(item, LobbySnapshot) for item in items)
        with pytest.raises(ClientClosedError):
            await conn.send(Move(room_id="r1", move="a1", ply=0))


async def test_an_unreachable_server_is_a_connect_error() -> None:
    server = FakeServer()
    async with server.running():
        url = server.url
    with pytest.raises(ConnectError, match="cannot reach"):
        await Connection.open(url, "ada", heartbeat=None)


def test_backoff_grows_to_its_maximum_and_stops() -> None:
    backoff = Backoff(initial=1.0, factor=3.0, maximum=5.0, jitter=0.0, attempts=4)
    assert list(backoff.delays()) == [1.0, 3.0, 5.0, 5.0]
    jittered = Backoff(initial=10.0, jitter=0.5, attempts=20, rng=random.Random(1))
    first = next(iter(jittered.delays()))
    assert 5.0 <= first <= 15.0
