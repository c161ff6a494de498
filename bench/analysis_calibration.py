"""Fit each game's evaluation scale: the score that gives odds of e to 1 of winning.

Plays self-play games from random openings, each side playing the analysis's own best
move (the same search at the same budget of work the analysis uses) but for a share of
its moves (``--error-rate``, a fifth by default), where it plays level 2's (two plies,
noisy) instead, as people err; it records the score of every position for the side to
move with the game's result for that side (1 won, 0 lost, ½ drawn). Without the errors
the stronger side nearly always wins and the results say little about a score's worth.
The scale ``s`` of the logistic curve ``1 / (1 + exp(-score / s))`` is then the one
that predicts those results best (the least cross-entropy, found by golden-section
search on log ``s``); proven wins and losses are left out, since the analysis maps them
to certainties anyway, and so are games still running at ``--max-plies``. Prints, per
game, the positions used, the fitted scale, the cross-entropy at it and at a scale
twice and half as large, and how often the side the score favoured won. Where the
favoured side always won, any small enough scale fits and the fit says nothing. The
scale goes into the game class's ``evaluation_scale``. Not part of the test run.
Usage: ``python bench/analysis_calibration.py --games 20 --work 5000 --only connect5``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from gamut_engine import AnyGame, load_game
from gamut_engine.analysis import Budget
from gamut_engine.analysis.position import judge
from gamut_engine.match import random_opening
from gamut_engine.players import AIPlayer
from gamut_engine.search import Searcher, is_decisive

VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("network", {"rules": "cs61b"}),
    ("network", {"rules": "2015"}),
    ("connect5", {"size": 15}),
    ("connect5", {"size": 9}),
    ("loa", {"size": 8}),
    ("loa", {"size": 6}),
    ("crusher", {"n": 3}),
    ("crusher", {"n": 4}),
)
"""The games and options calibrated, as ``--only`` picks them by name."""

ERRING_LEVEL = 2
"""The level whose move a side plays when it errs: two plies, with heavy noise."""


@dataclass(frozen=True, slots=True)
class Sample:
    """One position: its score for the side to move and that side's result."""

    score: int
    result: float


def self_play(
    game: AnyGame, state: Any, budget: Budget, args: argparse.Namespace, seed: int
) -> list[Sample] | None:
    """Samples of one game played out from ``state`` by the analysis's search, erring at
    ``args.error_rate``; ``None`` if it is still running after ``args.max_plies`` plies."""
    searcher: Searcher[Any, Any] = Searcher(game)
    rng = random.Random(seed)
    erring = AIPlayer(ERRING_LEVEL, seed=seed)
    seen: list[tuple[int, int]] = []
    for _ in range(args.max_plies):
        if (outcome := game.outcome(state)) is not None:
            return [
                Sample(score, 0.5 if outcome.winner is None else float(outcome.winner == side))
                for side, score in seen
                if not is_decisive(score)
            ]
        judgement = judge(searcher, state, budget)
        seen.append((judgement.side, judgement.score))
        move = judgement.best
        if rng.random() < args.error_rate:
            move = erring.choose_move(game, state)
        state = game.play(state, move)
    return None


def cross_entropy(samples: Sequence[Sample], scale: float) -> float:
    """Mean cross-entropy of the results against the chances the scale gives, in bits."""
    total = 0.0
    for sample in samples:
        chance = 1 / (1 + math.exp(max(-700.0, min(700.0, -sample.score / scale))))
        chance = min(max(chance, 1e-12), 1 - 1e-12)
        total -= sample.result * math.log2(chance) + (1 - sample.result) * math.log2(1 - chance)
    return total / len(samples)


def fit_scale(samples: Sequence[Sample], low: float = 1.0, high: float = 1e6) -> float:
    """The scale of least cross-entropy, by golden-section search on its logarithm."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = math.log(low), math.log(high)
    for _ in range(80):
        c, d = b - ratio * (b - a), a + ratio * (b - a)
        if cross_entropy(samples, math.exp(c)) < cross_entropy(samples, math.exp(d)):
            b = d
        else:
            a = c
    return math.exp((a + b) / 2)


def agreement(samples: Sequence[Sample]) -> float:
    """Share of the positions with a non-zero score whose favoured side won (draws ½)."""
    decided = [s for s in samples if s.score]
    if not decided:
        return 0.0
    return sum(s.result if s.score > 0 else 1 - s.result for s in decided) / len(decided)


def samples_of(
    name: str, options: dict[str, Any], args: argparse.Namespace
) -> Iterator[list[Sample] | None]:
    """The samples of each of ``args.games`` self-play games of one game."""
    budget = Budget(work=args.work, seconds=60.0)
    for number in range(args.games):
        game = load_game(name, **options)
        seed = args.seed * 10_000 + number
        yield self_play(game, random_opening(game, args.opening, seed)[0], budget, args, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="self-play games per game")
    parser.add_argument("--work", type=int, default=Budget().work, help="work per position")
    parser.add_argument("--opening", type=int, default=4, help="random plies first")
    parser.add_argument("--error-rate", type=float, default=0.2, help="share of level-2 moves")
    parser.add_argument("--max-plies", type=int, default=150, help="plies before giving up")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="calibrate the games whose name has this")
    args = parser.parse_args()
    print(
        f"{'game':<22} {'positions':>9} {'scale':>8} {'bits':>6} {'×2':>6} {'÷2':>6} {'agree':>6}"
    )
    for name, options in VARIANTS:
        label = name + "".join(f" {value}" for value in options.values())
        if args.only not in label:
            continue
        started = time.perf_counter()
        games = list(samples_of(name, options, args))
        finished = [game for game in games if game is not None]
        samples = [sample for game in finished for sample in game]
        if not samples:
            print(f"{label:<22} no finished game")
            continue
        scale = fit_scale(samples)
        print(
            f"{label:<22} {len(samples):>9} {scale:>8.1f} {cross_entropy(samples, scale):>6.3f} "
            f"{cross_entropy(samples, 2 * scale):>6.3f} {cross_entropy(samples, scale / 2):>6.3f} "
            f"{agreement(samples):>6.1%}  ({len(finished)} of {len(games)} games ended in "
            f"time, {time.perf_counter() - started:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
