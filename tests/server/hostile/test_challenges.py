"""What one player receives: a few challenges waiting at once, and no more than an
allowance whoever sends them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gamut_server.edge.addresses import AddressRules
from gamut_server.rooms.limits import Rate
from tests.server.live import close_all, connect, live_server, server_config

NEVER = 0.0001
"""A refill rate so slow that nothing comes back during a test."""

CHALLENGERS = 10


def challenge(name: str) -> dict[str, Any]:
    """A challenge to ``name`` to a game of Network, with the id ``c``."""
    opponent = {"kind": "player", "name": name}
    return {"type": "seek", "id": "c", "game": "network", "opponent": opponent}


async def test_challenges_to_one_player_from_many_connections_are_bounded(
    tmp_path: Path,
) -> None:
    config = server_config(
        tmp_path,
        challenges=Rate(8, NEVER),
        addresses=AddressRules(seeks=Rate(1000, 100)),
    )
    async with live_server(config) as server:
        victim = await connect(server, "victim")
        challengers = [await connect(server, f"pest{i}") for i in range(CHALLENGERS)]
        refusals: list[str] = []
        created = 0
        for _ in range(5):  # each challenges, and withdraws to challenge again
            for pest in challengers:
                await pest.send(challenge("victim"))
                answer = await pest.expect("seek_created", "error", reply_to="c")
                if answer["type"] == "error":
                    refusals.append(answer["message"])
                    continue
                created += 1
                seek_id = answer["seek"]["seek_id"]
                await pest.send({"type": "cancel_seek", "id": "x", "seek_id": seek_id})
                await pest.expect("seek_removed", reply_to="x")
        assert created == 8
        assert len(refusals) == 5 * CHALLENGERS - 8
        assert all("challenged too often" in sentence for sentence in refusals)
        await close_all([victim, *challengers])


async def test_a_few_challenges_wait_at_once(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path)) as server:
        victim = await connect(server, "victim")
        pests = [await connect(server, f"pest{i}") for i in range(6)]
        answers = []
        for pest in pests:
            for _ in range(2):
                await pest.send(challenge("VICTIM"))
                answers.append(await pest.expect("seek_created", "error", reply_to="c"))
        assert [a["type"] for a in answers[:10]] == ["seek_created"] * 10
        assert "has 10 challenges waiting already" in answers[10]["message"]
        assert "has 10 challenges waiting already" in answers[11]["message"]
        await close_all([victim, *pests])
