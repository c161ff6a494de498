"""A finished game analysed: every position judged, every move played compared with the best.

The positions are judged from the last to the first with one searcher, so that what the
search learnt near the end (its transposition table, a game's proven threats) helps it
judge the positions that led there. A move played is worth the judgement of the
position it made (the same search, seen from the other side). What it lost is measured
from the lower of two references: the judgement of the position before it (the search
of that position, the best move's value) and the judgement of the position the best
move would have made (judged as the move played is). Each alone misleads: a position
and its child are searched a ply apart, and in a game whose evaluation favours the side
to move (Crusher: a crush at hand is worth most of a piece) every move would seem to
lose against the first; the second is judged with less of what the search learnt along
the game, so it flatters the moves not played. A move is marked only when both say it
lost that much.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from gamut_engine.analysis.budget import Budget
from gamut_engine.analysis.position import Judgement, judge
from gamut_engine.analysis.probability import game_scale, mark, win_probability
from gamut_engine.analysis.report import (
    Analysis,
    BestMove,
    Evaluation,
    ForcedWin,
    PlyAnalysis,
    SideSummary,
)
from gamut_engine.core import Game
from gamut_engine.registry import AnyGame
from gamut_engine.search.alphabeta import Searcher

Progress = Callable[[int, int], None]
"""Called after each position judged with the positions done and their total."""


class NoEvaluationError(ValueError):
    """The game declares no evaluation of its positions, so there is nothing to analyse with."""


def declares_evaluation(game: AnyGame) -> bool:
    """Whether ``game`` evaluates positions itself rather than calling every one even."""
    return type(game).evaluate is not Game.evaluate


def check_analysable(game: AnyGame) -> None:
    """Raise :class:`NoEvaluationError` with a sentence unless ``game`` can be analysed."""
    if not declares_evaluation(game):
        raise NoEvaluationError(
            f"{game.title} declares no evaluation of its positions, so its games cannot be analysed"
        )


def replay(game: AnyGame, moves: Sequence[str]) -> tuple[list[Any], list[Any]]:
    """Every position of the game (the start first) and the moves read from ``moves``.

    Raises ``ValueError`` naming the first move that cannot be played, and why.
    """
    state = game.initial_state()
    states, played = [state], []
    for ply, text in enumerate(moves):
        try:
            move = game.parse_move(state, text)
        except ValueError as error:
            raise ValueError(f"move {ply + 1}, {text!r}, cannot be played: {error}") from None
        state = game.play(state, move)
        states.append(state)
        played.append(move)
    return states, played


def analyse(
    game: AnyGame,
    moves: Sequence[str],
    budget: Budget | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """Analyse the game of ``game`` whose moves were ``moves`` (in its notation).

    Every position gets ``budget`` (:class:`Budget`'s default if ``None``), so the same
    game analysed anywhere gives the same report unless a position's wall-clock cap ends
    its search first. Raises :class:`NoEvaluationError` for a game that declares no
    evaluation and ``ValueError`` for an illegal move.
    """
    check_analysable(game)
    budget = budget or Budget()
    states, played = replay(game, moves)
    judgements, alternatives = _judge_all(game, states, played, budget, progress)
    scale, calibrated = game_scale(game)
    plies = tuple(
        _ply(
            game,
            scale,
            index,
            move,
            judgements[index],
            judgements[index + 1],
            alternatives.get(index, judgements[index + 1]),
        )
        for index, move in enumerate(played)
    )
    return Analysis(
        game=game.name,
        options=dict(game.options),
        work=budget.work,
        effort=sum(j.work for j in (*judgements, *alternatives.values())),
        scale=scale,
        calibrated=calibrated,
        plies=plies,
        summaries=(summarise(0, plies), summarise(1, plies)),
    )


def _judge_all(
    game: AnyGame,
    states: Sequence[Any],
    played: Sequence[Any],
    budget: Budget,
    progress: Progress | None,
) -> tuple[list[Judgement], dict[int, Judgement]]:
    """Every position judged, the last first; and, for each move that was not the best,
    the position the best move would have made, by ply."""
    searcher: Searcher[Any, Any] = Searcher(game)
    judgements = [judge(searcher, states[-1], budget)]
    alternatives: dict[int, Judgement] = {}
    for index in reversed(range(len(played))):
        if progress is not None:
            progress(len(judgements), len(states))
        before = judge(searcher, states[index], budget)
        if before.best != played[index]:
            alternative = game.play(states[index], before.best)
            alternatives[index] = judge(searcher, alternative, budget)
        judgements.append(before)
    judgements.reverse()
    if progress is not None:
        progress(len(states), len(states))
    return judgements, alternatives


def evaluation(judgement: Judgement, scale: float) -> Evaluation:
    """A judgement's score and chance of winning from the first player's side."""
    score = judgement.score if judgement.side == 0 else -judgement.score
    return Evaluation(score, win_probability(score, scale))


def chance(evaluation: Evaluation, side: int) -> float:
    """``side``'s chance of winning in a position evaluated as ``evaluation``."""
    return evaluation.probability if side == 0 else 1.0 - evaluation.probability


def _ply(
    game: AnyGame,
    scale: float,
    index: int,
    move: Any,
    before: Judgement,
    after: Judgement,
    after_best: Judgement,
) -> PlyAnalysis:
    """The analysis of ``move``, played between the judgements ``before`` and ``after``
    where the best move would have led to ``after_best``."""
    side = before.side
    assert before.best is not None, "a move was played in a finished position"
    was, now, could = (evaluation(j, scale) for j in (before, after, after_best))
    best = move == before.best
    reference = min(chance(was, side), chance(could, side))
    loss = 0.0 if best else max(0.0, reference - chance(now, side))
    forced = None
    if was.winner == side and was.win_in is not None:
        forced = ForcedWin(was.win_in, kept=best or now.winner == side)
    return PlyAnalysis(
        ply=index,
        move=game.format_move(move),
        side=side,
        before=was,
        best=BestMove(
            move=game.format_move(before.best),
            line=tuple(game.format_move(step) for step in before.line),
            cells=tuple(game.move_cells(before.best)),
            after=could,
        ),
        after=now,
        loss=loss,
        mark=mark(loss),
        forced=forced,
    )


def summarise(side: int, plies: Sequence[PlyAnalysis]) -> SideSummary:
    """How ``side`` played in ``plies``."""
    own = [ply for ply in plies if ply.side == side]
    marks = [ply.mark for ply in own]
    return SideSummary(
        side=side,
        moves=len(own),
        inaccuracies=marks.count("inaccuracy"),
        mistakes=marks.count("mistake"),
        blunders=marks.count("blunder"),
        average_loss=sum(ply.loss for ply in own) / len(own) if own else 0.0,
        wins_missed=sum(1 for ply in own if ply.forced is not None and not ply.forced.kept),
    )
