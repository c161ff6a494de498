"""What the databases made before migrations hold, and how to read a store back.

:func:`fill` wrote the rows of the dumps in this folder (see ``make_dumps.py``);
:func:`snapshot` reads every game, move, chat line, account and ladder row back as
plain JSON, so an upgraded database can be compared with what was written.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime, timedelta
from typing import Any

from gamut_server.records.ladder import RatingUpdate
from gamut_server.storage import Clock, JSONObject, NewGame, Player, Result, Store, queue_record

T0 = datetime(2026, 6, 1, 9, 30, tzinfo=UTC)
ROOMS = ("lobby",)


def at(seconds: float) -> datetime:
    """``seconds`` after the dumps' first instant."""
    return T0 + timedelta(seconds=seconds)


async def _play(store: Store, game_id: str, moves: list[str], clock: Clock | None) -> None:
    for ply, move in enumerate(moves):
        after = Clock(
            None if clock is None or clock.remaining_ms is None else clock.remaining_ms,
            (ply + 1) % 2,
        )
        await store.record_move(
            game_id,
            ply=ply,
            move=move,
            side=ply % 2,
            think_ms=700 + ply,
            clock=after,
            seq=ply + 2,
            at=at(10 + ply),
        )


async def fill(store: Store) -> None:
    """Accounts, games in every status with moves and chat, and a rated ladder game."""
    ada = await store.create_account("ada", "argon2-hash-of-ada", at=at(0))
    await store.create_account("bob", "argon2-hash-of-bob", at=at(1))
    await store.create_account("eve", "argon2-hash-of-eve", at=at(2))
    await store.revoke_account("eve")
    humans = (Player("ada", "human"), Player("bob", "human"))
    untimed: JSONObject = {"kind": "untimed"}
    done = await store.create_game(
        NewGame(
            "network", {"rules": "cs61b"}, untimed, humans, Clock(None, 0), game_id="finished1"
        ),
        at=at(5),
    )
    await _play(store, done.id, ["a1", "b2", "c3"], None)
    await store.finish_game(done.id, Result(0, "resignation"), seq=9, at=at(30))
    for seq, (author, text) in enumerate([("ada", "good luck"), ("bob", "thanks, é ü 🙂")], 1):
        await store.record_chat(done.id, seq=seq, author=author, text=text, at=at(6 + seq))
        await store.record_chat("lobby", seq=seq, author=author, text=text, at=at(3 + seq))
    timed: JSONObject = {"kind": "fischer", "initial_ms": 300_000, "increment_ms": 2_000}
    running = await store.create_game(
        NewGame(
            "connect5", {"size": 9}, timed, humans, Clock((300_000, 300_000), 0), game_id="running1"
        ),
        at=at(40),
    )
    await _play(store, running.id, ["e5", "e6", "d4", "f6"], Clock((297_000, 298_500), 0))
    await store.create_game(
        NewGame(
            "crusher",
            {"n": 3},
            untimed,
            (Player("bob", "human"), None),
            Clock(None, 0),
            game_id="waiting1",
        ),
        start=False,
        at=at(50),
    )
    aborted = await store.create_game(
        NewGame("loa", {"size": 6}, untimed, humans, Clock(None, 0), game_id="aborted1"), at=at(60)
    )
    await store.abort_game(aborted.id, reason="abandoned", seq=3, at=at(61))
    await _ladder(store, ada.id)


async def _ladder(store: Store, ada_id: int) -> None:
    players = (Player("ada", "bot", ada_id), Player("ai:3", "ai"))
    rated = await store.create_game(
        NewGame(
            "connect5",
            {"size": 9},
            {"kind": "untimed"},
            players,
            Clock(None, 0),
            rated=True,
            pool="c5-9",
            game_id="rated1",
        ),
        at=at(70),
    )
    await _play(store, rated.id, ["e5", "a1", "e4"], None)
    await store.finish_game(rated.id, Result(0, "five", ("e5", "e4")), seq=6, at=at(80))
    await store.set_membership("c5-9", "ada", member=True, account_id=ada_id, at=at(65))
    await store.record_queue_events(
        [
            queue_record("c5-9", "ada", "join", at=at(66)),
            queue_record("c5-9", "ada", "paired", game_id="rated1", wait_ms=3900, at=at(70)),
        ]
    )
    updates = (
        RatingUpdate("ada", "bot", 0, 1.0, (25.0, 8.333), (27.6, 7.9), ada_id),
        RatingUpdate("ai:3", "ai", 1, 0.0, (20.0, 3.0), (19.7, 2.99)),
    )
    await store.record_rating("rated1", "c5-9", updates, at=at(81))


def _plain(value: Any) -> Any:
    """``value`` as JSON would carry it: dataclasses as objects, instants as text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


LEGACY_ACCOUNT_FIELDS = ("id", "name", "token_hash", "created_at", "revoked")
"""The fields an account had before people's passwords and folded names."""


async def _legacy_account(store: Store, name: str) -> dict[str, Any] | None:
    """The account ``name`` as the Gamut without migrations read it."""
    account = await store.account(name)
    if account is None:
        return None
    return {field: getattr(account, field) for field in LEGACY_ACCOUNT_FIELDS}


async def snapshot(store: Store) -> dict[str, Any]:
    """Everything :func:`fill` wrote, read back through the store, as plain JSON."""
    game_ids = ("finished1", "running1", "waiting1", "aborted1", "rated1")
    games = {game_id: await store.game(game_id) for game_id in game_ids}
    rooms = (*ROOMS, "finished1")
    content = {
        "games": games,
        "chat": {room: await store.chat_lines(room) for room in rooms},
        "accounts": {name: await _legacy_account(store, name) for name in ("ada", "bob", "eve")},
        "ratings": await store.ratings(),
        "history": await store.rating_history("c5-9"),
        "members": await store.memberships(pool="c5-9"),
        "queue": await store.queue_events("c5-9"),
        "export": await store.export_game("finished1"),
    }
    plain: dict[str, Any] = json.loads(json.dumps(_plain(content)))
    return plain
