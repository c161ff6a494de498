"""The engine's analysis of a game as the API sends it (:mod:`gamut_protocol.analysis`)."""

from __future__ import annotations

from typing import Any

from gamut_engine.analysis import Analysis, Evaluation, PlyAnalysis, SideSummary
from gamut_protocol import analysis as wire
from gamut_protocol.common import Side


def analysis_json(game_id: str, options: dict[str, Any], report: Analysis) -> dict[str, Any]:
    """``report`` of the game ``game_id`` (played with ``options``), as the JSON the API
    serves and the store keeps."""
    view = wire.GameAnalysis(
        game_id=game_id,
        game=report.game,
        options=options,
        work=report.work,
        scale=report.scale,
        calibrated=report.calibrated,
        plies=tuple(_ply(ply) for ply in report.plies),
        summary=tuple(_summary(summary) for summary in report.summaries),
    )
    return view.model_dump(mode="json", exclude_none=True)


def _evaluation(evaluation: Evaluation) -> wire.Evaluation:
    return wire.Evaluation(
        score=evaluation.score,
        probability=round(evaluation.probability, 4),
        winner=None if evaluation.winner is None else _side(evaluation.winner),
        win_in=evaluation.win_in,
    )


def _ply(ply: PlyAnalysis) -> wire.PlyAnalysis:
    forced = ply.forced
    return wire.PlyAnalysis(
        ply=ply.ply,
        move=ply.move,
        side=_side(ply.side),
        eval=_evaluation(ply.before),
        best=wire.BestMove(
            move=ply.best.move,
            line=ply.best.line,
            cells=ply.best.cells,
            after=_evaluation(ply.best.after),
        ),
        after=_evaluation(ply.after),
        loss=round(ply.loss, 4),
        mark=ply.mark,
        forced=None if forced is None else wire.ForcedWin(win_in=forced.moves, kept=forced.kept),
    )


def _summary(summary: SideSummary) -> wire.SideSummary:
    return wire.SideSummary(
        side=_side(summary.side),
        moves=summary.moves,
        inaccuracies=summary.inaccuracies,
        mistakes=summary.mistakes,
        blunders=summary.blunders,
        average_loss=round(summary.average_loss, 4),
        wins_missed=summary.wins_missed,
    )


def _side(side: int) -> Side:
    """A side index as the wire types it."""
    return 0 if side == 0 else 1
