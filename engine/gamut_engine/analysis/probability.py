"""From a search score to a chance of winning, and from a lost chance to a mark.

A score is mapped through the logistic curve ``1 / (1 + exp(-score / scale))``: a
score of ``scale`` points gives the side it favours odds of e to 1 (73%). Each game
declares its scale (:attr:`~gamut_engine.core.Game.evaluation_scale`), fitted to the
results of self-play games by ``bench/analysis_calibration.py`` (see ``docs/ai.md``);
a game that declares none gets :data:`DEFAULT_SCALE`, and the analysis says that its
chances are not calibrated. A proven win is a certainty, a proven loss none.

A move is marked by the chance of winning its side lost by it, as lichess marks chess
moves: :data:`INACCURACY`, :data:`MISTAKE` and :data:`BLUNDER` are the least losses
of each mark.
"""

from __future__ import annotations

import math
from typing import Final, Literal

from gamut_engine.registry import AnyGame
from gamut_engine.search.scores import WIN_BOUND

DEFAULT_SCALE: Final = 200.0
"""The scale of a game that declares none: Hex's two stones' worth, a guess."""

INACCURACY: Final = 0.10
"""The least chance of winning a move must lose to be an inaccuracy."""

MISTAKE: Final = 0.20
"""The least chance of winning a move must lose to be a mistake."""

BLUNDER: Final = 0.30
"""The least chance of winning a move must lose to be a blunder."""

Mark = Literal["inaccuracy", "mistake", "blunder"]
"""How bad a move was, by the chance of winning it lost."""


def game_scale(game: AnyGame) -> tuple[float, bool]:
    """The score scale of ``game`` and whether it was calibrated (declared by the game)."""
    declared = game.evaluation_scale
    if declared is None:
        return DEFAULT_SCALE, False
    return declared, True


def win_probability(score: int, scale: float) -> float:
    """The chance of winning of the side ``score`` is for: 1 for a proven win, 0 for a loss."""
    if score > WIN_BOUND:
        return 1.0
    if score < -WIN_BOUND:
        return 0.0
    exponent = -score / scale
    if exponent > 700:  # beyond a float's range: the chance is nil
        return 0.0
    return 1.0 / (1.0 + math.exp(exponent))


def mark(loss: float) -> Mark | None:
    """The mark of a move that lost ``loss`` (0 to 1) of its side's chance of winning."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None
