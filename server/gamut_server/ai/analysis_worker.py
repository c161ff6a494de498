"""What runs inside an analysis worker process: one finished game analysed.

An analysis worker is a process of its own, started like the AI's workers (``spawn``,
leaving Ctrl-C to the server and ending with it) but at the lowest CPU priority
(:data:`ANALYSIS_NICE`): on a busy machine the operating system gives the AI's workers,
and so every live game, the processor first. It reports each position judged on the
queue it was started with, so the server can answer how far an analysis has got.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from multiprocessing.queues import Queue
from typing import Any, Final

from gamut_engine import load_game
from gamut_engine.analysis import Budget, analyse
from gamut_server.ai import worker as ai_worker
from gamut_server.ai.analysis_view import analysis_json

ANALYSIS_NICE: Final = 19
"""How much lower than the server's an analysis worker's CPU priority is (the most Unix allows)."""

Progress = tuple[str, int, int]
"""What a worker reports: the game's id, the positions judged and their total."""

_progress: Queue[Progress | None] | None = None


@dataclass(frozen=True, slots=True)
class AnalysisRequest:
    """One game to analyse."""

    game_id: str
    """The stored game's id."""
    game: str
    """Its game's registry name."""
    options: dict[str, Any]
    """The options that recreate the game."""
    moves: tuple[str, ...]
    """Every move played, in the game's notation."""
    work: int
    """Units of work each position gets."""
    seconds: float
    """Wall-clock seconds after which a position's search stops, whatever its work."""


def start_worker(progress: Queue[Progress | None], nice: int = ANALYSIS_NICE) -> None:
    """Worker initialiser: ``nice`` steps below the server's CPU priority, ending with the
    server, reporting on ``progress``."""
    global _progress
    os.nice(nice)
    ai_worker.follow_parent()
    _progress = progress


def run(request: AnalysisRequest) -> dict[str, Any]:
    """The analysis of ``request``'s game, as the API serves it.

    Raises ``ValueError`` with a sentence for a game that cannot be analysed.
    """
    game = load_game(request.game, **request.options)
    budget = Budget(work=request.work, seconds=request.seconds)
    report = analyse(
        game,
        request.moves,
        budget,
        progress=lambda done, total: _report(request.game_id, done, total),
    )
    return analysis_json(request.game_id, request.options, report)


def _report(game_id: str, done: int, total: int) -> None:
    """Tell the server how far the analysis of ``game_id`` has got."""
    if _progress is not None:
        _progress.put((game_id, done, total))
