"""The driver over a real store, as a cluster's node: a room whose game another node has
claimed leaves this node at its first write, nothing of the batch is sent, and the
request goes to the room's new node; a room still its own plays on."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gamut_protocol import Chat, Move
from gamut_server.core.driver import Driver
from gamut_server.core.ops import Blocking, Handle, LobbyOp, RoomOp
from gamut_server.rooms import OpenRoom, SeekKept, Send
from gamut_server.rooms.effects import ConnectionId
from gamut_server.storage import Store
from tests.server.rooms_support import ALICE, BOB, WHITE_WIN, network_spec
from tests.server.test_room_resume import driver_of


class FakeCluster:
    """A cluster port that records what goes to other nodes."""

    def __init__(self) -> None:
        self.elsewhere: list[tuple[str, RoomOp]] = []
        self.lost: list[str] = []

    def deliver_elsewhere(self, send: Send, conns: Sequence[ConnectionId]) -> None:
        """Nothing is delivered elsewhere in these tests."""

    async def lobby_elsewhere(self, op: LobbyOp) -> bool:
        return False

    async def room_elsewhere(self, room_id: str, op: RoomOp) -> bool:
        self.elsewhere.append((room_id, op))
        return True

    async def open_elsewhere(self, effect: OpenRoom) -> bool:
        return False

    async def room_opened(self, room_id: str) -> None:
        """Recorded in Redis, in a real cluster."""

    async def room_closed(self, room_id: str) -> None:
        """The room left memory (its game over)."""

    async def room_lost(self, room_id: str) -> None:
        self.lost.append(room_id)

    def seek_kept(self, effect: SeekKept) -> None:
        """Kept on the author's node, in a real cluster."""

    def share_blocking(self, blocking: Blocking) -> None:
        """Told to the other nodes, in a real cluster."""


async def _opened(tmp_path: Path, store: Store) -> tuple[Driver, FakeCluster]:
    driver = driver_of(store, tmp_path)
    cluster = FakeCluster()
    driver.cluster = cluster
    await driver.open_room("g1", network_spec(), [ALICE, BOB])
    return driver, cluster


async def test_a_room_claimed_by_another_node_leaves_at_its_first_write(tmp_path: Path) -> None:
    async with await Store.open(str(tmp_path / "games.sqlite3")) as store:
        driver, cluster = await _opened(tmp_path, store)
        assert driver.rooms["g1"].epoch == 0
        assert await store.claim_game("g1", "n2") == 1
        op = Handle(ALICE, Move(room_id="g1", move=WHITE_WIN[0], ply=0, id="m"))
        assert await driver.room_op("g1", op)
        assert "g1" not in driver.rooms
        assert cluster.elsewhere == [("g1", op)]
        assert cluster.lost == ["g1"]
        assert (await store.game("g1")).moves == ()


async def test_a_room_still_its_own_plays_on(tmp_path: Path) -> None:
    async with await Store.open(str(tmp_path / "games.sqlite3")) as store:
        driver, cluster = await _opened(tmp_path, store)
        op = Handle(ALICE, Move(room_id="g1", move=WHITE_WIN[0], ply=0, id="m"))
        assert await driver.room_op("g1", op)
        assert cluster.elsewhere == []
        assert [m.move for m in (await store.game("g1")).moves] == [WHITE_WIN[0]]


async def test_a_chat_line_in_a_room_claimed_by_another_node_is_not_stored(
    tmp_path: Path,
) -> None:
    async with await Store.open(str(tmp_path / "games.sqlite3")) as store:
        driver, cluster = await _opened(tmp_path, store)
        await store.claim_game("g1", "n2")
        op = Handle(ALICE, Chat(room_id="g1", text="still mine?", id="c"))
        assert await driver.room_op("g1", op)
        assert "g1" not in driver.rooms
        assert cluster.elsewhere == [("g1", op)], "the line goes to the room's new node"
        assert await store.chat_lines("g1") == []
