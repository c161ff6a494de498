"""Restart recovery: bring every unfinished game back from storage as a live room.

Each stored game is rebuilt by :meth:`Room.restore`, which replays its moves through
the engine and restarts the clocks from the stored ones, so the downtime is charged to
nobody. Its players then have the grace period to come back; if the AI is to move, it
starts thinking at once.
"""

from __future__ import annotations

import logging

from gamut_server.core.driver import Driver
from gamut_server.core.ops import Listed
from gamut_server.rooms import Room
from gamut_server.storage import GameRecord

log = logging.getLogger(__name__)


async def recover(driver: Driver) -> int:
    """Restore every unfinished game of ``driver``'s store; returns how many came back."""
    restored = 0
    for record in await driver.store.unfinished_games():
        if await restore(driver, record):
            restored += 1
    if restored:
        log.info("restored %d unfinished game(s)", restored)
    return restored


async def restore(driver: Driver, record: GameRecord, epoch: int | None = None) -> bool:
    """Bring one game back, held at ``epoch`` on a cluster's node; ``False`` (logged) if
    its record cannot be replayed."""
    game_id = record.info.id
    chat = await driver.store.chat_lines(game_id)
    now = driver.now_ms()
    try:
        room = Room.restore(record, chat, driver.room_config, now_ms=now)
    except (ValueError, LookupError):
        log.exception("game %s cannot be restored and stays as stored", game_id)
        return False
    driver.add_room(room, epoch)
    await driver.lobby_op(Listed(room.summary()))
    await driver.room_call(game_id, lambda live: live.resume_play(driver.now_ms()))
    return True
