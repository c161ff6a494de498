"""Games against the hosted AI over real sockets: it answers from its process pool, and
other games go on while it thinks."""

from __future__ import annotations

from pathlib import Path

from gamut_server import keys
from gamut_server.edge.addresses import AddressRules
from gamut_server.rooms.limits import Rate
from tests.server.live import (
    Client,
    Message,
    close_all,
    connect,
    live_server,
    play,
    server_config,
    start_game,
)


async def play_first_legal_moves(client: Client, snapshot: Message) -> Message:
    """Play the first legal move whenever it is ``client``'s turn; the ``game_over``."""
    room_id = snapshot["room_id"]
    side = snapshot["your_side"]
    position = snapshot["position"]
    legal = snapshot["legal_moves"]
    while True:
        if position["to_move"] == side and legal:
            await client.send(
                {"type": "move", "room_id": room_id, "move": legal[0], "ply": position["ply"]}
            )
        event = await client.expect("move_made", "game_over", "error", room_id=room_id)
        assert event["type"] != "error", event
        if event["type"] == "game_over":
            return event
        position, legal = event["position"], event["legal_moves"]


async def test_a_client_plays_the_ai_to_the_end(tmp_path: Path) -> None:
    async with live_server(server_config(tmp_path, ai_workers=1)) as server:
        human = await connect(server, "ada")
        await human.send(
            {
                "type": "seek",
                "id": "vs-ai",
                "game": "network",
                "options": {"max_plies": 24},
                "opponent": {"kind": "ai", "level": 2},
                "side": 1,
            }
        )
        snapshot = await human.expect("room_snapshot", reply_to="vs-ai")
        assert snapshot["your_side"] == 1
        assert snapshot["players"][0]["kind"] == "ai"
        over = await play_first_legal_moves(human, snapshot)
        assert over["result"]["reason"] in {"network", "max_plies"}
        ai_moves = [
            event for event in human.received if event["type"] == "move_made" and event["side"] == 0
        ]
        assert ai_moves
        assert ai_moves[0]["ply"] == 0
        await human.close()


async def test_other_games_move_while_the_ai_thinks(tmp_path: Path) -> None:
    # Level 8 thinks for its whole budget on Connect Five 15×15 (45 s): far longer than six
    # moves take, and the searches are abandoned when the server stops, not waited for.
    config = server_config(tmp_path, ai_workers=2, ai_max_think_s=600.0)
    async with live_server(config) as server:
        pool = server.app[keys.AI_POOL]
        thinkers = [await connect(server, name) for name in ("t1", "t2")]
        for number, thinker in enumerate(thinkers):
            await thinker.send(
                {
                    "type": "seek",
                    "id": number,
                    "game": "connect5",
                    "opponent": {"kind": "ai", "level": 8},
                    "side": 0,
                }
            )
            snapshot = await thinker.expect("room_snapshot", reply_to=number)
            # On an empty board the AI has one sensible move and plays it at once; after
            # a first stone it has a real choice to think about.
            await play(thinker, snapshot["room_id"], "h8", 0)
        white, black = await connect(server, "ada"), await connect(server, "bob")
        room_id, _, _ = await start_game(white, black)
        assert pool.thinking == 2
        for ply, text in enumerate(("01", "10", "72", "20", "61", "40")):
            await play((white, black)[ply % 2], room_id, text, ply)
        assert pool.thinking == 2, "six moves were played while both searches ran"
        await close_all([*thinkers, white, black])


async def test_a_thousand_ai_games_from_one_connection_are_capped(tmp_path: Path) -> None:
    flood = Rate(capacity=2_000, per_second=1_000)
    addresses = AddressRules(seeks=flood)
    config = server_config(
        tmp_path, ai_workers=1, messages=flood, addresses=addresses, max_rooms_per_connection=5
    )
    async with live_server(config) as server:
        greedy = await connect(server, "greedy")
        seek = {"type": "seek", "game": "network", "opponent": {"kind": "ai", "level": 1}}
        for number in range(1000):
            await greedy.send({**seek, "id": number, "side": 0})
        answers = [
            await greedy.expect("room_snapshot", "error", reply_to=number) for number in range(1000)
        ]
        rooms = [answer for answer in answers if answer["type"] == "room_snapshot"]
        refusals = {answer["code"] for answer in answers if answer["type"] == "error"}
        assert len(rooms) == 5
        assert len(refusals) == 1
        assert len(server.app[keys.HUB].driver.rooms) == 5
        room_id = rooms[0]["room_id"]
        await play(greedy, room_id, "01", 0)
        await greedy.expect("move_made", room_id=room_id, ply=1)
        await greedy.close()
