"""What an analysis says about a game: each ply's evaluation, best move and mark.

Plain frozen values: moves are written in the game's notation and scores are from the
first player's side (side 0), so a report can be stored, sent and shown without the
engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gamut_engine.analysis.probability import Mark
from gamut_engine.search.scores import WIN, WIN_BOUND


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A position's worth from the first player's side."""

    score: int
    """The search's score for side 0: points, or ``±(1,000,000 - plies)`` for a proven result."""
    probability: float
    """Side 0's chance of winning, 0 to 1."""

    @property
    def winner(self) -> int | None:
        """The side a proven result is a win for; ``None`` while unproven."""
        if self.score > WIN_BOUND:
            return 0
        if self.score < -WIN_BOUND:
            return 1
        return None

    @property
    def win_in(self) -> int | None:
        """The winner's own moves to a proven win (the winning one included)."""
        if self.winner is None:
            return None
        return winner_moves(WIN - abs(self.score))


@dataclass(frozen=True, slots=True)
class BestMove:
    """The move the AI would have played, and the line it expects."""

    move: str
    """The move, in the game's notation."""
    line: tuple[str, ...]
    """The principal variation, starting with :attr:`move`."""
    cells: tuple[str, ...]
    """The cells :attr:`move` names, as the board draws them."""
    after: Evaluation
    """The position the move would have made, judged as the move played is judged."""


@dataclass(frozen=True, slots=True)
class ForcedWin:
    """A forced win the side to move had before its move."""

    moves: int
    """The side's own moves to the win, the winning one included."""
    kept: bool
    """Whether the move played kept a forced win (found) or let it go (missed)."""


@dataclass(frozen=True, slots=True)
class PlyAnalysis:
    """One move played, judged."""

    ply: int
    """0 for the first move of the game."""
    move: str
    """The move played, in the game's notation."""
    side: int
    """The side that played it."""
    before: Evaluation
    """The position before the move, at its best."""
    best: BestMove
    """What the AI would have played there."""
    after: Evaluation
    """The position after the move played."""
    loss: float
    """The mover's chance of winning lost by the move (0 to 1; 0 for the best move
    itself): the lower of its chance before the move and after the best move, less its
    chance after the move played."""
    mark: Mark | None
    """``inaccuracy``, ``mistake`` or ``blunder`` by :attr:`loss`, or ``None``."""
    forced: ForcedWin | None
    """The forced win the mover had, found or missed; ``None`` if it had none."""


@dataclass(frozen=True, slots=True)
class SideSummary:
    """How one side played over the game."""

    side: int
    """The side's index."""
    moves: int
    """Moves the side played."""
    inaccuracies: int
    """Moves marked ``inaccuracy``."""
    mistakes: int
    """Moves marked ``mistake``."""
    blunders: int
    """Moves marked ``blunder``."""
    average_loss: float
    """Mean chance of winning lost per move (0 to 1)."""
    wins_missed: int
    """Forced wins the side had and let go."""


@dataclass(frozen=True, slots=True)
class Analysis:
    """A whole game judged, ply by ply."""

    game: str
    """The game's registry name."""
    options: Mapping[str, object]
    """The options that recreate the game."""
    work: int
    """Units of work each position was given (see :class:`~gamut_engine.analysis.Budget`)."""
    effort: int
    """Units of work the whole analysis took: at most :attr:`work` a position judged, and
    a game of ``n`` moves judges at most ``2n + 1`` positions."""
    scale: float
    """Points of score that give odds of e to 1 (see :mod:`gamut_engine.analysis.probability`)."""
    calibrated: bool
    """Whether the game declares :attr:`scale` (measured from self-play) or it is a guess."""
    plies: tuple[PlyAnalysis, ...]
    """One entry per move played, in order."""
    summaries: tuple[SideSummary, SideSummary]
    """Each side's summary, side 0 first."""


def winner_moves(plies: int) -> int:
    """The winner's moves in a win ``plies`` plies away (it moves on the odd ones)."""
    return (plies + 1) // 2
