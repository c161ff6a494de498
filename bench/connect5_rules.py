"""Connect Five's rules alone: random playouts and perft, against OpenSpiel's gomoku.

What a room, a random playout or a perft pays per move, without the search: plays a
second through random games (``play`` only, CPU time), and perft leaves a second from a
position of a few random stones, each leaf counted as ``perft`` counts it (the last ply by
the length of the move list). Where OpenSpiel is importable (``pip install open_spiel`` in
a virtualenv of its own, this file run by that Python with the engine on ``PYTHONPATH``),
its 15×15 gomoku walks the very same trees in the same run, and the ratio is printed::

    PYTHONPATH=engine /path/to/venv/bin/python bench/connect5_rules.py

``--leaf-plays`` plays every leaf (a state made per leaf) instead of counting the last
ply's moves, as ``gamut perft`` does. Usage:
``python bench/connect5_rules.py [--seconds S] [--depth D] [--stones N] [--leaf-plays]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.perft import perft

try:  # OpenSpiel is a comparison, never a dependency.
    import pyspiel  # type: ignore[import-not-found]
except ImportError:
    pyspiel = None


def gamut_playouts(seconds: float) -> float:
    """Plays a second (CPU time of ``play`` alone) through random 15×15 games."""
    game = ConnectFiveGame(size=15)
    rng = random.Random(7)
    played, spent = 0, 0.0
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        state = game.initial_state()
        while game.outcome(state) is None:
            move = rng.choice(game.legal_moves(state))
            started = time.process_time()
            state = game.play(state, move)
            spent += time.process_time() - started
            played += 1
    return played / spent


def spiel_playouts(seconds: float) -> float:
    """Plays a second (CPU time of ``apply_action`` alone) through random gomoku games."""
    game = pyspiel.load_game("gomoku")
    rng = random.Random(7)
    played, spent = 0, 0.0
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            move = rng.choice(state.legal_actions())
            started = time.process_time()
            state.apply_action(move)
            spent += time.process_time() - started
            played += 1
    return played / spent


def opening(stones: int, seed: int) -> list[int]:
    """``stones`` distinct random cells of the 15×15 board, played in turn from the start."""
    return random.Random(seed).sample(range(225), stones)


def gamut_perft(moves: list[int], depth: int, plays: bool) -> tuple[int, float]:
    """Leaves and CPU seconds of Gamut's perft below the opening ``moves``.

    With ``plays``, every leaf is played rather than counted in its parent's move list.
    """
    game = ConnectFiveGame(size=15)
    state = game.initial_state()
    for move in moves:
        state = game.play(state, move)

    def walk(node: Any, left: int) -> int:
        if game.outcome(node) is not None:
            return 0
        if left == 1:
            return sum(1 for move in game.legal_moves(node) if game.play(node, move))
        return sum(walk(game.play(node, move), left - 1) for move in game.legal_moves(node))

    return timed(lambda: walk(state, depth) if plays else perft(game, state, depth))


def spiel_perft(moves: list[int], depth: int, plays: bool) -> tuple[int, float]:
    """Leaves and CPU seconds of the same perft through OpenSpiel's gomoku (same cell order)."""
    state = pyspiel.load_game("gomoku").new_initial_state()
    for move in moves:
        state.apply_action(move)

    def walk(node: Any, left: int) -> int:
        if node.is_terminal():
            return 0
        actions = node.legal_actions()
        if left == 1:
            return sum(1 for action in actions if node.child(action)) if plays else len(actions)
        return sum(walk(node.child(action), left - 1) for action in actions)

    return timed(lambda: walk(state, depth))


def timed(run: Callable[[], int]) -> tuple[int, float]:
    """What ``run`` returns and the CPU seconds it took."""
    started = time.process_time()
    leaves = run()
    return leaves, time.process_time() - started


def main() -> None:
    """Print plays a second and perft leaves a second, with OpenSpiel's beside them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="playout CPU seconds (3)")
    parser.add_argument("--depth", type=int, default=3, help="perft depth (3)")
    parser.add_argument("--stones", type=int, default=6, help="random stones first (6)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, interleaved (3)")
    parser.add_argument(
        "--leaf-plays", action="store_true", help="play every leaf instead of counting moves"
    )
    args = parser.parse_args()
    moves = opening(args.stones, seed=1)
    for round_ in range(1, args.rounds + 1):
        plays = gamut_playouts(args.seconds)
        leaves, spent = gamut_perft(moves, args.depth, args.leaf_plays)
        line = f"round {round_}: Gamut {plays:,.0f} plays/s, perft {leaves:,} leaves "
        line += f"{leaves / spent:,.0f}/s"
        if pyspiel is not None:
            spiel_plays = spiel_playouts(args.seconds)
            spiel_leaves, spiel_spent = spiel_perft(moves, args.depth, args.leaf_plays)
            assert spiel_leaves == leaves, (spiel_leaves, leaves)
            spiel_rate = spiel_leaves / spiel_spent
            line += f"; OpenSpiel {spiel_plays:,.0f} plays/s, perft {spiel_rate:,.0f}/s"
            line += f"; Gamut per leaf {leaves / spent / spiel_rate:.2f}x OpenSpiel's"
        print(line, flush=True)


if __name__ == "__main__":
    main()
