"""The AI's analysis of a finished game, as the HTTP API sends it.

``GET /api/games/{id}/analysis`` answers :data:`AnalysisAnswer`: while the analysis
waits or runs, its progress (:class:`AnalysisProgress`); once it is done, every move
judged (:class:`GameAnalysis`). Scores are from the first player's side (side 0), in
the search's points, a proven result as ``±(1,000,000 - plies)``; each comes with side
0's chance of winning.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import Field, StrictBool, StrictInt, TypeAdapter

from gamut_protocol.common import (
    MAX_PLY,
    CellName,
    Count,
    GameName,
    GameOptions,
    Identifier,
    MoveText,
    Ply,
    Sentence,
    Side,
    WireModel,
)

MAX_SCORE: Final = 1_000_000
"""The largest score a search gives: a win on the spot."""

Score = Annotated[StrictInt, Field(ge=-MAX_SCORE, le=MAX_SCORE)]
"""A search score: points, or ``±(1,000,000 - plies)`` for a proven win or loss."""

Chance = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
"""A chance, 0 to 1."""

Mark = Literal["inaccuracy", "mistake", "blunder"]
"""How much a move lost: 10%, 20%, 30% of its side's chance of winning or more."""

Line = Annotated[tuple[MoveText, ...], Field(max_length=MAX_PLY)]
"""Moves one after the other, in the game's notation."""


class Evaluation(WireModel):
    """A position's worth from the first player's side."""

    score: Score
    """The search's score for side 0."""
    probability: Chance
    """Side 0's chance of winning."""
    winner: Side | None = None
    """The side a proven result wins for; absent while unproven."""
    win_in: StrictInt | None = Field(default=None, ge=0, le=MAX_PLY)
    """The winner's own moves to its proven win, the winning one included."""


class BestMove(WireModel):
    """The move the AI would have played, and the line it expected."""

    move: MoveText
    """The move."""
    line: Line
    """The principal variation, starting with :attr:`move`."""
    cells: Annotated[tuple[CellName, ...], Field(max_length=8)]
    """The cells the move names, to draw it on the board."""
    after: Evaluation
    """The position it would have made."""


class ForcedWin(WireModel):
    """A forced win the side to move had before its move."""

    win_in: StrictInt = Field(ge=0, le=MAX_PLY)
    """The side's own moves to the win, the winning one included."""
    kept: StrictBool
    """Whether the move played kept a forced win (found) or let it go (missed)."""


class PlyAnalysis(WireModel):
    """One move played, judged."""

    ply: Ply
    """0 for the first move."""
    move: MoveText
    """The move played."""
    side: Side
    """The side that played it."""
    eval: Evaluation
    """The position before the move, at its best."""
    best: BestMove
    """What the AI would have played there."""
    after: Evaluation
    """The position after the move played."""
    loss: Chance
    """The mover's chance of winning after the best move less that after the move played."""
    mark: Mark | None = None
    """The move's mark, by :attr:`loss`; absent for a good move."""
    forced: ForcedWin | None = None
    """The forced win the mover had, found or missed; absent if it had none."""


class SideSummary(WireModel):
    """How one side played."""

    side: Side
    """The side."""
    moves: Count
    """Moves it played."""
    inaccuracies: Count
    """Moves marked ``inaccuracy``."""
    mistakes: Count
    """Moves marked ``mistake``."""
    blunders: Count
    """Moves marked ``blunder``."""
    average_loss: Chance
    """Mean chance of winning lost per move."""
    wins_missed: Count
    """Forced wins it had and let go."""


class GameAnalysis(WireModel):
    """A finished game judged ply by ply."""

    status: Literal["done"] = "done"
    """The analysis is complete."""
    game_id: Identifier
    """The game analysed."""
    game: GameName
    """Its game's registry name."""
    options: GameOptions
    """Its game's options."""
    work: Count
    """Units of work each position was given (about one a node searched)."""
    scale: float = Field(gt=0, allow_inf_nan=False)
    """Score points that give odds of e to 1 (73%) of winning."""
    calibrated: StrictBool
    """Whether the game's scale was measured from self-play, or is a guess."""
    plies: Annotated[tuple[PlyAnalysis, ...], Field(max_length=MAX_PLY)]
    """One entry per move played, in order."""
    summary: Annotated[tuple[SideSummary, ...], Field(min_length=2, max_length=2)]
    """Each side's summary, side 0 first."""


ProgressStatus = Literal["queued", "running", "failed"]
"""An analysis not done: waiting for a worker, under way, or given up."""


class AnalysisProgress(WireModel):
    """An analysis waiting for a worker, under way, or given up."""

    status: ProgressStatus
    """Waiting, under way, or failed (see :attr:`message`)."""
    game_id: Identifier
    """The game analysed."""
    done: Count = 0
    """Positions judged so far."""
    total: Count = 0
    """Positions to judge: one more than the moves played."""
    message: Sentence | None = None
    """Why it failed, for people."""


AnalysisAnswer = Annotated[GameAnalysis | AnalysisProgress, Field(discriminator="status")]
"""What ``GET /api/games/{id}/analysis`` answers."""

ANALYSIS_ADAPTER: TypeAdapter[GameAnalysis | AnalysisProgress] = TypeAdapter(AnalysisAnswer)
"""Reads and checks an :data:`AnalysisAnswer` (``ANALYSIS_ADAPTER.validate_json(text)``)."""
