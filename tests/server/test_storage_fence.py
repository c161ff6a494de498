"""Each game's epoch fences its writes: once a node claims the game, a write made with
an earlier epoch is refused and stores nothing, alone or among others in a group."""

from __future__ import annotations

import asyncio

import pytest

from gamut_server.storage import Clock, FencedError, GameStateError, Result, Store
from tests.server.test_storage_group import new_games


async def move(store: Store, game_id: str, ply: int, epoch: int | None, text: str = "") -> None:
    """Record move ``ply`` at ``epoch``."""
    await store.record_move(
        game_id,
        ply=ply,
        move=text or f"m{ply}",
        side=ply % 2,
        think_ms=1,
        clock=Clock(None, to_move=1 - ply % 2),
        seq=ply + 1,
        epoch=epoch,
    )


async def test_a_claim_moves_the_epoch_on_and_fences_the_old_holder(store: Store) -> None:
    [game_id] = await new_games(store, 1)
    await move(store, game_id, 0, epoch=0)
    assert await store.claim_game(game_id, "n2") == 1
    with pytest.raises(FencedError) as fenced:
        await move(store, game_id, 1, epoch=0)
    assert (fenced.value.epoch, fenced.value.current) == (0, 1)
    await move(store, game_id, 1, epoch=1, text="theirs")
    with pytest.raises(FencedError):
        await store.finish_game(game_id, Result(0, "resign"), epoch=0)
    record = await store.game(game_id)
    assert [m.move for m in record.moves] == ["m0", "theirs"]
    assert record.info.status == "running"
    await store.finish_game(game_id, Result(0, "resign"), epoch=1)
    with pytest.raises(GameStateError):
        await store.claim_game(game_id, "n3")


async def test_a_stale_move_in_a_group_fails_alone(store: Store) -> None:
    games = await new_games(store, 4)
    await store.claim_game(games[1], "n2")
    results = await asyncio.gather(
        *(move(store, game_id, 0, epoch=0) for game_id in games), return_exceptions=True
    )
    assert [type(result).__name__ for result in results] == [
        "NoneType",
        FencedError.__name__,
        "NoneType",
        "NoneType",
    ]
    assert (await store.game(games[1])).moves == ()


async def test_writes_without_an_epoch_are_not_fenced(store: Store) -> None:
    [game_id] = await new_games(store, 1)
    await store.claim_game(game_id, "n2")
    await move(store, game_id, 0, epoch=None)
    assert len((await store.game(game_id)).moves) == 1


async def test_a_chat_line_of_the_old_holder_is_fenced_too(store: Store) -> None:
    [game_id] = await new_games(store, 1)
    await store.record_chat(game_id, seq=1, author="ada", text="hi", epoch=0)
    await store.claim_game(game_id, "n2")
    with pytest.raises(FencedError):
        await store.record_chat(game_id, seq=2, author="ada", text="stale", epoch=0)
    await store.record_chat(game_id, seq=2, author="bob", text="fresh", epoch=1)
    assert [line.text for line in await store.chat_lines(game_id)] == ["hi", "fresh"]
