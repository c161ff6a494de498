"""AI levels against each other: does every level beat the one below it?

Plays each adjacent pair of levels over several games, sides alternating, each game
opened with a few random plies so that the deterministic levels do not repeat one game.
Prints the stronger level's wins, draws and losses, its score with a 95% Wilson
interval, and the mean depth each level completed (a level whose time runs out before
its depth plays a shallower move than its number promises), and how many games the
side to move after the opening won, whichever level it was (a game where that side
wins nearly always squeezes every score towards 50%). ``--share 5=1/12`` plays
level 5 with another share of the budget, to try a share before changing the table.
Not part of the test run.
Usage: ``python bench/levels.py connect5 --size 9 --games 6 --budget 1 --pairs 4,5``.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from fractions import Fraction
from typing import Any

from gamut_engine import AnyGame, load_game
from gamut_engine.match_score import match_score, wilson_interval
from gamut_engine.players import AIPlayer
from gamut_engine.search import levels


class Depths:
    """Depths completed by one player's searches, for the mean."""

    def __init__(self) -> None:
        """No search yet."""
        self.total = 0
        self.count = 0

    def add(self, player: AIPlayer) -> None:
        """Count the player's last search."""
        if player.last_result is not None:
            self.total += player.last_result.depth
            self.count += 1

    @property
    def mean(self) -> float:
        """Mean depth completed, 0 without any search."""
        return self.total / self.count if self.count else 0.0


def opening(game: AnyGame, plies: int, seed: int) -> Any:
    """A position after ``plies`` random moves that has not ended."""
    rng = random.Random(seed)
    while True:
        state = game.initial_state()
        for _ in range(plies):
            if game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
        if game.outcome(state) is None:
            return state


def play(
    game: AnyGame, state: Any, players: tuple[AIPlayer, AIPlayer], depths: tuple[Depths, Depths]
) -> int | None:
    """Play ``state`` out, counting each side's depths; the winner's side or ``None``."""
    while (outcome := game.outcome(state)) is None:
        side = game.to_move(state)
        state = game.play(state, players[side].choose_move(game, state))
        depths[side].add(players[side])
    return outcome.winner


def match(
    game: AnyGame, weaker: int, args: argparse.Namespace
) -> tuple[tuple[int, int, int], tuple[Depths, Depths], int]:
    """Wins, draws and losses of level ``weaker + 1`` against level ``weaker``, the
    depths the stronger and the weaker level completed, and the games won by the side
    to move after the opening (whichever level had it)."""
    tally = [0, 0, 0]
    mover_wins = 0
    strong_depths, weak_depths = Depths(), Depths()
    for index in range(args.games):
        start = opening(game, args.opening, seed=index // 2)
        strong = AIPlayer(weaker + 1, budget=args.budget, seed=index)
        weak = AIPlayer(weaker, budget=args.budget, seed=1000 + index)
        strong_side = index % 2
        players = (strong, weak) if strong_side == 0 else (weak, strong)
        depths = (strong_depths, weak_depths) if strong_side == 0 else (weak_depths, strong_depths)
        winner = play(game, start, players, depths)
        tally[1 if winner is None else 0 if winner == strong_side else 2] += 1
        mover_wins += winner == game.to_move(start)
    wins, draws, losses = tally
    return (wins, draws, losses), (strong_depths, weak_depths), mover_wins


def share_levels(shares: list[str]) -> None:
    """Give each ``LEVEL=SHARE`` level that share of the budget for this run."""
    table = list(levels.LEVELS)
    for text in shares:
        number, _, share = text.partition("=")
        level = levels.get_level(int(number))
        table[level.number - 1] = dataclasses.replace(level, time_share=float(Fraction(share)))
    levels.LEVELS = tuple(table)


def main() -> None:
    """Print one line per pair of adjacent levels: the stronger level's wins, draws, losses."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--size", type=int)
    parser.add_argument("--n", type=int)
    parser.add_argument("--games", type=int, default=6, help="games per pair (default 6)")
    parser.add_argument("--budget", type=float, default=1.0, help="level-8 seconds a move")
    parser.add_argument("--opening", type=int, default=2, help="random plies first")
    parser.add_argument(
        "--pairs", default="2,3,4,5,6,7,8", help="the stronger level of each pair (2-8)"
    )
    parser.add_argument(
        "--share", action="append", default=[], help="LEVEL=SHARE of the budget, e.g. 5=1/12"
    )
    args = parser.parse_args()
    share_levels(args.share)
    options = {k: v for k, v in (("size", args.size), ("n", args.n)) if v is not None}
    game = load_game(args.game, **options)
    shares = "".join(f", level {text}" for text in args.share)
    print(f"{game.title}: budget {args.budget:g} s, {args.games} games a pair{shares}", flush=True)
    for stronger in (int(part) for part in args.pairs.split(",")):
        started = time.perf_counter()
        (wins, draws, losses), (strong, weak), mover_wins = match(game, stronger - 1, args)
        seconds = time.perf_counter() - started
        interval = wilson_interval(wins, draws, losses)
        print(
            f"level {stronger} vs {stronger - 1}: {wins}-{draws}-{losses}, "
            f"{match_score(wins, draws, losses):.0%} ({interval.low:.0%}-{interval.high:.0%}), "
            f"depth {strong.mean:.1f} vs {weak.mean:.1f}, first to move won {mover_wins}"
            f"  ({seconds:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
