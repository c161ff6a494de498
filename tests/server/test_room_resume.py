"""Coming back: resuming from a sequence number, and rooms rebuilt from storage."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from gamut_protocol import (
    Chat,
    ChatLine,
    Fischer,
    GameOver,
    MoveMade,
    PlayerConnected,
    PlayerDisconnected,
    Resume,
    RoomSnapshot,
)
from gamut_server.ai.pool import AIPool
from gamut_server.core.driver import Driver
from gamut_server.rooms import (
    Lobby,
    RequestAIMove,
    Room,
    RoomConfig,
    SeatSpec,
    Send,
    StoreChat,
    StoreMove,
    StoreResult,
    ai_seat,
)
from gamut_server.storage import (
    ChatLine as StoredChatLine,
)
from gamut_server.storage import (
    Clock,
    GameInfo,
    GameRecord,
    GameStatus,
    JSONValue,
    MoveRecord,
    Player,
    Store,
)
from tests.server.live import server_config
from tests.server.rooms_support import (
    ALICE,
    BLACK_IDLE,
    BOB,
    CAROL,
    WHITE_WIN,
    all_of,
    clocks_of,
    network_spec,
    only,
    play,
    received,
    seqs,
    started_room,
)

AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_resume_replays_the_missed_events_in_order():
    room, _ = started_room()
    play(room, ALICE, "02", 10)
    room.disconnected(BOB, 20)
    play(room, ALICE, "02", 30)  # refused: not ALICE's turn, nothing numbered
    room.handle(ALICE, Chat(room_id="r1", text="are you there?"), 40)
    batch = room.handle(BOB, Resume(room_id="r1", after_seq=1, id="back"), 50)
    replay = received(batch, BOB)
    assert [type(m) for m in replay] == [PlayerDisconnected, ChatLine, PlayerConnected]
    assert seqs(replay) == [2, 3, 4]
    assert replay[-1].reply_to == "back"
    assert only(received(batch, ALICE), PlayerConnected).seq == 4
    assert room.snapshot(BOB, 51).your_side == 1


def test_resume_from_an_unknown_point_gets_a_snapshot():
    room, _ = started_room()
    play(room, ALICE, "02", 10)
    room.disconnected(BOB, 20)
    ahead = room.handle(BOB, Resume(room_id="r1", after_seq=99, id=1), 30)
    snapshot = only(received(ahead, BOB), RoomSnapshot)
    assert snapshot.reply_to == 1
    assert snapshot.seq == room.seq == 3


def test_resume_with_nothing_missed_gets_a_snapshot():
    room, _ = started_room()
    play(room, ALICE, "02", 10)
    batch = room.handle(BOB, Resume(room_id="r1", after_seq=1), 20)
    assert only(received(batch, BOB), RoomSnapshot).seq == 1


def test_events_older_than_the_log_keeps_need_a_snapshot():
    room, _ = started_room(config=RoomConfig(max_events=3))
    for n in range(5):
        room.handle(ALICE, Chat(room_id="r1", text=f"line {n}"), n)
    assert room.events_after(1) is None
    kept = room.events_after(2)
    assert kept is not None
    assert [event.seq for event in kept] == [3, 4, 5]
    assert room.events_after(5) == []


def test_a_spectator_resumes_as_a_spectator():
    room, _ = started_room()
    play(room, ALICE, "02", 10)
    batch = room.handle(CAROL, Resume(room_id="r1", after_seq=0), 20)
    assert only(received(batch, CAROL), MoveMade).seq == 1
    assert room.snapshot(CAROL, 21).your_side is None


UNTIMED_CLOCK = Clock(remaining_ms=None, to_move=0)
ALICE_AND_BOB = (Player("alice", "human"), Player("bob", "bot"))


def record_of(
    moves: list[str],
    players: tuple[Player | None, Player | None] = ALICE_AND_BOB,
    time_control: dict[str, JSONValue] | None = None,
    clock: Clock = UNTIMED_CLOCK,
    last_seq: int | None = None,
    status: GameStatus = "running",
) -> GameRecord:
    """A stored game with ``moves`` played, as the store would hand it back."""
    stored = tuple(
        MoveRecord(
            ply=ply,
            move=text,
            side=ply % 2,
            think_ms=100 * (ply + 1),
            clock=Clock(remaining_ms=None, to_move=(ply + 1) % 2),
            seq=ply + 1,
            at=AT,
        )
        for ply, text in enumerate(moves)
    )
    info = GameInfo(
        id="g1",
        game="network",
        options={"rules": "cs61b", "max_plies": 400},
        time_control=time_control or {"kind": "untimed"},
        players=players,
        rated=False,
        pool=None,
        status=status,
        result=None,
        clock=clock,
        clock_at=AT,
        plies=len(moves),
        last_seq=len(moves) if last_seq is None else last_seq,
        created_at=AT,
        started_at=AT,
        finished_at=None,
    )
    return GameRecord(info=info, moves=stored)


def test_restore_replays_the_moves_and_waits_for_both_players():
    record = record_of(["02", "10", "22"])
    room = Room.restore(record, now_ms=1_000_000)
    assert room.match.ply == 3
    assert room.match.to_move == 1
    assert room.seq == 3
    assert [m.think_ms for m in room.match.moves] == [100, 200, 300]
    snapshot = room.snapshot(None, 1_000_000)
    assert [seat.connected for seat in snapshot.players] == [False, False]
    assert room.next_deadline_ms() == 1_000_000 + RoomConfig().untimed_grace_ms
    back = room.connected(BOB, 1_000_100)
    assert all_of(back, Send) == []  # nobody else is there to tell
    assert room.events_after(3) == [PlayerConnected(room_id="g1", seq=4, side=1)]
    assert room.next_deadline_ms() == 1_000_100 + RoomConfig().untimed_grace_ms
    played = play(room, BOB, "30", 1_000_200)
    assert only(played, StoreMove).seq == 5
    assert room.match.ply == 4


def test_restore_continues_the_numbering_after_stored_chat():
    record = record_of(["02"])
    chat = [StoredChatLine(room="g1", seq=2, author="bob", text="hi", at=AT)]
    room = Room.restore(record, chat, now_ms=0)
    assert room.seq == 2
    assert room.snapshot(None, 0).chat[0].text == "hi"
    room.connected(ALICE, 1)
    batch = room.handle(ALICE, Chat(room_id="g1", text="hello"), 2)
    assert only(batch, StoreChat).seq == 4


def test_restore_resumes_the_clocks_from_the_stored_times():
    control: dict[str, JSONValue] = {"kind": "fischer", "initial_ms": 60_000, "increment_ms": 0}
    record = record_of(
        ["02", "10"], time_control=control, clock=Clock(remaining_ms=(41_000, 37_000), to_move=0)
    )
    room = Room.restore(record, now_ms=5_000_000)
    assert room.spec.time_control == Fischer(initial_ms=60_000)
    assert clocks_of(room.snapshot(None, 5_010_000).clocks).remaining_ms == (31_000, 37_000)
    assert room.match.clock.deadline_ms() == 5_000_000 + 41_000 + 500


def test_restore_asks_the_ai_when_it_is_to_move():
    players = (Player("alice", "human"), Player("ai-7", "ai"))
    room = Room.restore(record_of(["02"], players=players), now_ms=0)
    assert room.spec.seats[1] == ai_seat(7)
    request = only(room.resume_play(10), RequestAIMove)
    assert (request.ply, request.moves, request.level) == (1, ("02",), 7)


def test_restore_finishes_a_game_the_last_move_had_already_won():
    moves = [m for pair in zip(WHITE_WIN, BLACK_IDLE, strict=True) for m in pair][:11]
    room = Room.restore(record_of(moves), now_ms=0)
    batch = room.resume_play(10)
    assert only(batch, StoreResult).result.reason == "network"
    assert room.over


def test_restore_refuses_records_it_cannot_play_on():
    with pytest.raises(ValueError, match="empty seat"):
        Room.restore(record_of([], players=(Player("alice", "human"), None)), now_ms=0)
    with pytest.raises(ValueError, match="refused"):
        Room.restore(record_of(["02", "02"]), now_ms=0)
    with pytest.raises(ValueError, match="finished"):
        Room.restore(record_of([], status="finished"), now_ms=0)


def driver_of(store: Store, tmp_path: Path) -> Driver:
    """The server's driver over ``store``, with no AI and no connections: its ``perform``
    is the server's own storage step, writes first, then the rest."""
    config = server_config(tmp_path)
    return Driver(config, store, AIPool(0), Lobby(), {}, RoomConfig())


async def test_a_game_survives_a_restart_through_a_real_store(tmp_path: Path) -> None:
    url = str(tmp_path / "games.sqlite3")
    spec = network_spec(Fischer(initial_ms=300_000, increment_ms=2_000))
    async with await Store.open(url) as store:
        perform = driver_of(store, tmp_path).perform
        room = Room("g1", spec)
        await perform(room.start([ALICE, BOB], 0))
        now = 0
        for white, black in list(zip(WHITE_WIN, BLACK_IDLE, strict=True))[:3]:
            now += 1_000
            await perform(play(room, ALICE, white, now))
            now += 3_000
            await perform(play(room, BOB, black, now))
        await perform(room.handle(ALICE, Chat(room_id="g1", text="brb"), now + 1))
        clocks_before = room.snapshot(None, now).clocks

    async with await Store.open(url) as store:
        perform = driver_of(store, tmp_path).perform
        [record] = await store.unfinished_games()
        chat = await store.chat_lines("g1")
        restored = Room.restore(record, chat, now_ms=10_000_000)
        assert restored.match.move_texts() == room.match.move_texts()
        assert restored.seq == room.seq
        assert restored.snapshot(None, 10_000_000).clocks == clocks_before
        assert restored.snapshot(None, 0).chat[-1].text == "brb"
        await perform(restored.resume_play(10_000_000))
        await perform(restored.connected(ALICE, 10_000_001))
        await perform(restored.connected(BOB, 10_000_002))
        now = 10_000_010
        for white, black in list(zip(WHITE_WIN, BLACK_IDLE, strict=True))[3:]:
            batch = play(restored, ALICE, white, now)
            await perform(batch)
            if restored.over:
                break
            await perform(play(restored, BOB, black, now + 1))
            now += 10
        assert only(received(batch, BOB), GameOver).result.reason == "network"
        final = await store.game("g1")
        assert final.info.status == "finished"
        assert final.info.result is not None
        assert final.info.result.winner == 0
        assert [m.move for m in final.moves] == list(restored.match.move_texts())
        assert final.info.last_seq == restored.seq
        assert all_of(batch, StoreResult)


def test_seats_in_a_restored_room_keep_their_kinds():
    players = (Player("alice", "guest"), Player("bob", "bot"))
    room = Room.restore(record_of([], players=players), now_ms=0)
    assert room.spec.seats == (SeatSpec("alice", "human"), SeatSpec("bob", "bot"))


def test_follows_tells_which_connections_are_in_the_room():
    room, _ = started_room()
    assert room.follows(ALICE.conn)
    assert not room.follows(CAROL.conn)
    room.handle(CAROL, Resume(room_id="r1", after_seq=0), 1)
    assert room.follows(CAROL.conn)
    room.disconnected(CAROL, 2)
    assert not room.follows(CAROL.conn)
