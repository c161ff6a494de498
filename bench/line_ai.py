"""The engine's AI as a line-protocol program, to play one version of Gamut against another.

``gamut match`` runs any line-protocol program as a player (``line:COMMAND``), so an
earlier version of the engine, checked out elsewhere, plays the current one through
this script::

    git worktree add /tmp/gamut-before main
    gamut match loa "line:env PYTHONPATH=/tmp/gamut-before/engine python bench/line_ai.py \\
        ai:time=0.5" ai:time=0.5 -n 40 --opening 4

The first argument is the player spec (any the engine's ``parse_player`` reads). On
each ``go`` the script replays the moves from the start, so history rules hold, and
answers with the player's move.
"""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from gamut_engine import load_game
from gamut_engine.players import parse_player
from gamut_engine.registry import GAMES


def options(name: str, texts: list[str]) -> dict[str, Any]:
    """The ``key=value`` texts as the game ``name`` declares them (``rules=2015`` stays text)."""
    declared = {spec.name: spec for spec in GAMES[name].declared_options()}
    found: dict[str, Any] = {}
    for text in texts:
        key, _, value = text.partition("=")
        found[key] = declared[key].read(value) if key in declared else value
    return found


def collector_hold() -> AbstractContextManager[Any]:
    """Holds the cycle collector across an answer, in engines that can (older ones cannot)."""
    try:
        from gamut_engine.search.collection import collector_held
    except ImportError:
        return nullcontext()
    return collector_held()


def main() -> None:
    """Answer the line protocol on standard input and output until ``quit``."""
    player = parse_player(sys.argv[1] if len(sys.argv) > 1 else "ai:time=1")
    game: Any = None
    moves: list[str] = []
    for line in sys.stdin:
        word, _, rest = line.strip().partition(" ")
        if word == "game":
            name, *texts = rest.split()
            game = load_game(name, **options(name, texts))
        elif word == "moves":
            moves = rest.split()
        elif word == "go" and game is not None:
            state = game.initial_state()
            for text in moves:
                state = game.play(state, game.parse_move(state, text))
            with collector_hold():  # collect what the search left after answering
                print(game.format_move(player.choose_move(game, state)), flush=True)
        elif word == "quit":
            return


if __name__ == "__main__":
    main()
