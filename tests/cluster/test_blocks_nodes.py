"""Blocks across the nodes of a cluster: a player on a node that does not lead the lobby
blocks a player on another node; the blocked player's challenge is refused and their
lobby chat lines and open seeks are not shown to the blocker, as on one server, and still so once
another node leads the lobby. In a room on a third node, the blocked player's lines reach
the blocker with their words hidden, also on another node where the blocker is signed in
too, or connected again as the same guest."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from gamut_protocol import PROTOCOL_VERSION
from gamut_server.core.delivery import HIDDEN_LINE
from tests.cluster.nodes import (
    NO_WORKERS,
    health,
    leading,
    node_number,
    post_json,
    running_nodes,
)
from tests.e2e.served import Served
from tests.server.live import Client, close_all, start_game
from tests.server.test_blocks import answer_to, challenge

pytestmark = pytest.mark.timeout(240)

REFUSAL = "ada does not accept challenges from you"
"""What a blocked player's challenge is answered on one server."""


async def test_a_block_made_on_one_node_holds_on_the_others(tmp_path: Path) -> None:
    async with running_nodes(tmp_path, 3, *NO_WORKERS) as nodes:
        await _blocked_across_nodes(nodes)


async def _blocked_across_nodes(nodes: list[Served]) -> None:
    """ada (on a node not leading) blocks pest (on another); bob is on the leader."""
    leader = await leading(nodes)
    first, second = [served for served in nodes if served is not leader]
    ada, pest, bob = await _client(first, "ada"), await _client(second, "pest"), None
    try:
        bob = await _client(leader, "bob")
        assert (await answer_to(ada, {"type": "block", "id": "b", "name": "pest"}))["names"]
        await _seen_by(ada, pest, "hello all")
        await _refused(pest, "c1")
        await pest.send({"type": "chat", "text": "you are terrible"})
        await bob.expect("chat_line", text="you are terrible")
        await _seen_by(bob, ada, "be nice")
        assert not _heard(ada, "you are terrible")
        seek_id = (await answer_to(pest, {"type": "seek", "id": "s", "game": "network"}))["seek"]
        await ada.send({"type": "accept_seek", "id": "a", "seek_id": seek_id["seek_id"]})
        assert (await ada.expect("error", reply_to="a"))["code"] == "unknown_seek"
        gone = node_number(leader)
        os.kill(leader.process.pid, signal.SIGKILL)
        await asyncio.to_thread(leader.process.wait, 60)
        await leading([first, second], away=gone)
        for client in (ada, pest):
            await client.expect("lobby_snapshot", timeout=60)
        await _seen_by(ada, pest, "still here")
        await _refused(pest, "c2")
    finally:
        await close_all([client for client in (ada, pest, bob) if client is not None])


async def test_a_room_on_a_third_node_hides_a_blocked_player_s_lines(tmp_path: Path) -> None:
    async with running_nodes(tmp_path, 3, *NO_WORKERS) as (first, second, third):
        ada, pest = await _client(first, "ada"), await _client(second, "pest")
        bob = await _client(third, "bob")
        try:
            await answer_to(ada, {"type": "block", "id": "b", "name": "pest"})
            room_id, _, _ = await start_game(pest, bob)
            assert health(third)["rooms"] == 1, "the room opens on the node of its accepter"
            await pest.send({"type": "chat", "room_id": room_id, "text": "before you came"})
            await bob.expect("chat_line", room_id=room_id, text="before you came")
            await ada.send({"type": "join", "id": "j", "room_id": room_id, "role": "spectator"})
            snapshot = await ada.expect("room_snapshot", room_id=room_id)
            assert [line["author"] for line in snapshot["chat"]] == []
            await pest.send({"type": "chat", "room_id": room_id, "text": "spectators are losers"})
            await bob.expect("chat_line", room_id=room_id, text="spectators are losers")
            assert (await ada.expect("chat_line", room_id=room_id))["text"] == HIDDEN_LINE
        finally:
            await close_all([ada, pest, bob])


async def test_a_block_reaches_the_blocker_s_connections_on_other_nodes(tmp_path: Path) -> None:
    async with running_nodes(tmp_path, 3, *NO_WORKERS) as (first, second, third):
        status, made = post_json(first, "/api/accounts", {"name": "ada"})
        assert status == 201, made
        here = await _client(first, "ada", token=made["token"])
        there = await _client(second, "ada", token=made["token"])
        pest, bob = await _client(third, "pest"), await _client(third, "bob")
        try:
            await there.expect("blocks", names=[])
            await answer_to(here, {"type": "block", "id": "b", "name": "pest"})
            await there.expect("blocks", names=["pest"])
            await _hidden_in_a_room(there, pest, bob)
        finally:
            await close_all([here, there, pest, bob])


async def _hidden_in_a_room(blocker: Client, pest: Client, bob: Client) -> None:
    """pest and bob start a game; ``blocker`` watches it and gets pest's line hidden."""
    room_id, _, _ = await start_game(pest, bob)
    await blocker.send({"type": "join", "id": "j", "room_id": room_id, "role": "spectator"})
    await blocker.expect("room_snapshot", room_id=room_id)
    await pest.send({"type": "chat", "room_id": room_id, "text": "you again"})
    assert (await blocker.expect("chat_line", room_id=room_id))["text"] == HIDDEN_LINE


async def _refused(pest: Client, seek_id: str) -> None:
    """pest's challenge to ada is refused, in the words of one server."""
    refused = await answer_to(pest, challenge("ada", seek_id))
    assert (refused.get("code"), refused.get("message")) == ("refused", REFUSAL), refused


async def _client(served: Served, name: str, **hello: Any) -> Client:
    """A player of ``served`` following the lobby (a guest, unless ``hello`` has a token)."""
    client = await Client.connect(served.ws_url)
    await client.hello(name, protocol=PROTOCOL_VERSION, **hello)
    await client.expect("lobby_snapshot")
    return client


async def _seen_by(author: Client, reader: Client, text: str) -> None:
    """``author`` says ``text`` in the lobby and ``reader`` sees it: whatever ``author``'s
    node sent the lobby's leader before has been applied there."""
    await author.send({"type": "chat", "text": text})
    await reader.expect("chat_line", text=text)


def _heard(client: Client, text: str) -> bool:
    """Whether ``client`` was sent a chat line saying ``text``."""
    return any(m.get("text") == text for m in client.received + client.drain_unread())


async def test_a_guest_s_blocks_reach_its_connection_on_another_node(tmp_path: Path) -> None:
    async with running_nodes(tmp_path, 3, *NO_WORKERS) as (first, second, third):
        here = await _client(first, "ada")
        pest, bob = await _client(third, "pest"), await _client(third, "bob")
        there = None
        try:
            await answer_to(here, {"type": "block", "id": "b", "name": "pest"})
            there = await _client(second, "ada", token=here.token)
            await there.expect("blocks", names=["pest"])
            await answer_to(there, {"type": "block", "id": "b", "name": "bob"})
            await here.expect("blocks", names=["pest", "bob"])
            await _hidden_in_a_room(there, pest, bob)
        finally:
            await close_all([c for c in (here, there, pest, bob) if c is not None])
