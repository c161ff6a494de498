"""AI levels against each other: does every level beat the one below it?

Plays each adjacent pair of levels over several games, sides alternating, each game
opened with a few random plies so that the deterministic levels do not repeat one game.
Prints the score of the stronger level. Not part of the test run. Usage:
``python bench/levels.py connect5 --size 9 --games 6 --budget 1``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from gamut_engine import AnyGame, load_game
from gamut_engine.players import AIPlayer, Player


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


def play(game: AnyGame, state: Any, players: tuple[Player, Player]) -> int | None:
    """Play ``state`` out; the winner's side or ``None``."""
    while (outcome := game.outcome(state)) is None:
        state = game.play(state, players[game.to_move(state)].choose_move(game, state))
    return outcome.winner


def match(game: AnyGame, weaker: int, args: argparse.Namespace) -> tuple[int, int, int]:
    """Wins, draws and losses of level ``weaker + 1`` against level ``weaker``."""
    tally = [0, 0, 0]
    for index in range(args.games):
        start = opening(game, args.opening, seed=index // 2)
        strong = AIPlayer(weaker + 1, budget=args.budget, seed=index)
        weak = AIPlayer(weaker, budget=args.budget, seed=1000 + index)
        strong_side = index % 2
        players: tuple[Player, Player] = (strong, weak) if strong_side == 0 else (weak, strong)
        winner = play(game, start, players)
        tally[1 if winner is None else 0 if winner == strong_side else 2] += 1
    wins, draws, losses = tally
    return wins, draws, losses


def main() -> None:
    """Print one line per pair of adjacent levels: the stronger level's wins, draws, losses."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--size", type=int)
    parser.add_argument("--n", type=int)
    parser.add_argument("--games", type=int, default=6, help="games per pair (default 6)")
    parser.add_argument("--budget", type=float, default=1.0, help="level-8 seconds a move")
    parser.add_argument("--opening", type=int, default=2, help="random plies first")
    parser.add_argument("--levels", default="1-8", help="range of levels, such as 1-5")
    args = parser.parse_args()
    options = {k: v for k, v in (("size", args.size), ("n", args.n)) if v is not None}
    game = load_game(args.game, **options)
    low, high = (int(part) for part in args.levels.split("-"))
    print(f"{game.title}: budget {args.budget:g} s, {args.games} games a pair")
    for weaker in range(low, high):
        started = time.perf_counter()
        wins, draws, losses = match(game, weaker, args)
        seconds = time.perf_counter() - started
        score = wins + draws / 2
        line = f"level {weaker + 1} vs {weaker}: +{wins} ={draws} -{losses}, {score:g}/{args.games}"
        print(f"{line}  ({seconds:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
