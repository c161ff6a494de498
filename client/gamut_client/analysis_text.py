"""A game's analysis as an annotated move list for a terminal.

One line a move: its number, the side, the move with its mark (``?!`` inaccuracy, ``?``
mistake, ``??`` blunder), the position it made (score from the first side's view, or
who wins in how many moves) with the first side's chance of winning, and for a marked
move what it cost and the AI's better move with its line; a forced win missed or found
is said too. Then each side's summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from gamut_protocol.analysis import Evaluation, GameAnalysis, PlyAnalysis, SideSummary

SYMBOLS: Final = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The mark of a move as chess annotators write it."""

LINE_MOVES: Final = 6
"""Moves of the AI's line shown after a better move."""


def format_analysis(report: GameAnalysis, sides: Sequence[str], heading: str) -> str:
    """``report`` as text; ``sides`` names side 0 and side 1, ``heading`` comes first."""
    first = sides[0]
    lines = [
        heading,
        f"Analysed at {report.work:,} units of work a position; chances are {first}'s"
        + ("" if report.calibrated else " (a guess: this game's scale was never measured)")
        + ".",
        "",
    ]
    side_width = max(len(side) for side in sides)
    move_width = max((len(ply.move) for ply in report.plies), default=1) + 2
    had_win = [False, False]
    for ply in report.plies:
        lines.append(_ply_line(ply, sides, side_width, move_width, had_win))
    lines.append("")
    lines += [_summary_line(summary, sides) for summary in report.summary]
    return "\n".join(lines)


def evaluation_text(evaluation: Evaluation, sides: Sequence[str]) -> str:
    """``+35``, or who wins in how many moves (``O wins in 2``), or who has won."""
    if evaluation.winner is None:
        return f"{evaluation.score:+d}"
    winner = sides[evaluation.winner]
    if not evaluation.win_in:
        return f"{winner} has won"
    moves = "move" if evaluation.win_in == 1 else "moves"
    return f"{winner} wins in {evaluation.win_in} {moves}"


def _ply_line(
    ply: PlyAnalysis,
    sides: Sequence[str],
    side_width: int,
    move_width: int,
    had_win: list[bool],
) -> str:
    """One move's line; ``had_win`` says, for each side, whether its last move had a forced win."""
    move = ply.move + SYMBOLS.get(ply.mark or "", "")
    chance = f"{round(100 * ply.after.probability):>3}%"
    head = (
        f"{ply.ply + 1:>4}. {sides[ply.side]:<{side_width}}  {move:<{move_width}}"
        f"{evaluation_text(ply.after, sides):>18} {chance}"
    )
    notes = []
    if ply.mark is not None:
        line = " ".join(ply.best.line[:LINE_MOVES])
        notes.append(f"{ply.mark}, {round(100 * ply.loss)}% lost; best {ply.best.move} ({line})")
    forced = ply.forced
    if forced is not None and not forced.kept:
        notes.append(f"missed a win in {forced.win_in}")
    elif forced is not None and not had_win[ply.side]:
        notes.append(f"found a win in {forced.win_in}")
    had_win[ply.side] = forced is not None and forced.kept
    return head + ("   " + "; ".join(notes) if notes else "")


def _summary_line(summary: SideSummary, sides: Sequence[str]) -> str:
    """One side's counts and average loss."""
    counts = [
        _count(summary.inaccuracies, "inaccuracy", "inaccuracies"),
        _count(summary.mistakes, "mistake", "mistakes"),
        _count(summary.blunders, "blunder", "blunders"),
    ]
    text = (
        f"{sides[summary.side]}: {summary.moves} moves, {', '.join(counts)}; "
        f"average loss {100 * summary.average_loss:.1f}%"
    )
    if summary.wins_missed:
        text += f"; {_count(summary.wins_missed, 'forced win', 'forced wins')} missed"
    return text


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"
