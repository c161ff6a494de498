"""The AI's analysis of a finished game: each position's worth, the best move, the marks.

``analyse(game, moves)`` judges every position of a game with the AI's own search at a
fixed budget of work per position (:class:`Budget`), maps each score to a chance of
winning (:mod:`~gamut_engine.analysis.probability`) and marks each move by the chance
its side lost by it. Pure and synchronous, like the rest of the engine.
"""

from gamut_engine.analysis.budget import Budget
from gamut_engine.analysis.game import (
    NoEvaluationError,
    Progress,
    analyse,
    check_analysable,
    declares_evaluation,
)
from gamut_engine.analysis.probability import (
    BLUNDER,
    DEFAULT_SCALE,
    INACCURACY,
    MISTAKE,
    Mark,
    game_scale,
    mark,
    win_probability,
)
from gamut_engine.analysis.report import (
    Analysis,
    BestMove,
    Evaluation,
    ForcedWin,
    PlyAnalysis,
    SideSummary,
)
from gamut_engine.search.work import WorkClock

__all__ = [
    "BLUNDER",
    "DEFAULT_SCALE",
    "INACCURACY",
    "MISTAKE",
    "Analysis",
    "BestMove",
    "Budget",
    "Evaluation",
    "ForcedWin",
    "Mark",
    "NoEvaluationError",
    "PlyAnalysis",
    "Progress",
    "SideSummary",
    "WorkClock",
    "analyse",
    "check_analysable",
    "declares_evaluation",
    "game_scale",
    "mark",
    "win_probability",
]
