"""A batch's writes, as the store takes them.

Each storage effect becomes one call of the :class:`~gamut_server.storage.Store`,
awaited in order. A move that ends the game and the end it brings are stored in one
transaction (:class:`~gamut_server.storage.Ending`): if the write fails, neither is
stored, so the room can go back to the position before the move and have it played
again.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamut_server.rooms import (
    Effect,
    StartGame,
    StoreAbort,
    StoreChat,
    StoreMove,
    StoreResult,
)
from gamut_server.storage import Ending, Store


def paired(effects: Sequence[Effect]) -> list[tuple[Effect, StoreResult | None]]:
    """``effects`` in order, each :class:`StoreMove` with the :class:`StoreResult` of the
    same room right after it, if any (the pair is then one write)."""
    pairs: list[tuple[Effect, StoreResult | None]] = []
    for effect in effects:
        if pairs and isinstance(effect, StoreResult):
            before, ending = pairs[-1]
            same_room = isinstance(before, StoreMove) and before.room_id == effect.room_id
            if ending is None and same_room:
                pairs[-1] = (before, effect)
                continue
        pairs.append((effect, None))
    return pairs


async def store_effect(
    store: Store, effect: Effect, ending: StoreResult | None = None, epoch: int | None = None
) -> None:
    """Write one storage effect (with the end a move brings) and wait for it to commit;
    a cluster's node passes the ``epoch`` it holds the room at, which fences the game's
    moves, chat lines and end (:class:`~gamut_server.storage.FencedError` once another
    node holds it).

    Rooms write without waiting for one another: the store queues the writes first come
    first served and commits those waiting together (group commit).
    """
    match effect:
        case StartGame(game=game):
            await store.add_game(game, start=True)
        case StoreMove():
            end = None if ending is None else Ending(ending.result, ending.clock, ending.seq)
            await store.record_move(
                effect.room_id,
                ply=effect.ply,
                move=effect.move,
                side=effect.side,
                think_ms=effect.think_ms,
                clock=effect.clock,
                seq=effect.seq,
                ending=end,
                epoch=epoch,
            )
        case StoreResult():
            await store.finish_game(
                effect.room_id, effect.result, clock=effect.clock, seq=effect.seq, epoch=epoch
            )
        case StoreAbort():
            await store.abort_game(
                effect.room_id, reason=effect.reason, seq=effect.seq, epoch=epoch
            )
        case StoreChat():
            await store.record_chat(
                effect.room_id, seq=effect.seq, author=effect.author, text=effect.text, epoch=epoch
            )
