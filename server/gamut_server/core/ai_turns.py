"""The hosted AI's turn in a room: a request to the worker pool, tried again on failure.

The room asks for the AI's move with a :class:`~gamut_server.rooms.RequestAIMove`
effect; the driver runs :func:`ai_answer` in a task of its own and hands the answer
back to the room. The search never runs on the event loop (see :mod:`gamut_server.ai`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from gamut_server.ai.pool import AIPool
from gamut_server.ai.worker import ThinkAnswer, ThinkRequest
from gamut_server.rooms import RequestAIMove

log = logging.getLogger(__name__)

AI_ATTEMPTS: Final = 3
"""How many times the AI is asked for one move before the room is left waiting."""

AI_RETRY_S: Final = 1.0
"""Seconds before asking the AI again, times the attempt number."""


async def ai_answer(pool: AIPool, max_think_s: float, effect: RequestAIMove) -> ThinkAnswer | None:
    """The AI's move for the room of ``effect``, thinking ``max_think_s`` at most;
    ``None`` if the pool failed :data:`AI_ATTEMPTS` times."""
    limit_ms = round(max_think_s * 1000)
    budget = limit_ms if effect.budget_ms is None else min(effect.budget_ms, limit_ms)
    request = ThinkRequest(
        game=effect.game,
        options=dict(effect.options),
        moves=effect.moves,
        level=effect.level,
        budget_ms=max(budget, 1),
    )
    for attempt in range(1, AI_ATTEMPTS + 1):
        try:
            return await pool.think(request)
        except Exception:
            log.exception("the AI failed to move in room %s (attempt %d)", effect.room_id, attempt)
            await asyncio.sleep(attempt * AI_RETRY_S)
    return None
