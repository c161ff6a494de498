"""``gamut local``: the 2015 Network console game, for every game.

It asks how many people play, prints the board after every move, says why a move
is refused and asks again, and announces the winner with the winning line. It reads
plain lines from standard input, so a game can be piped in.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from gamut_client.commands.common import add_game_arguments, game_from_args
from gamut_engine import AnyGame, IllegalMoveError, InvalidMoveError, Outcome
from gamut_engine.players import Player, parse_player

HUMAN_PROMPT = "Enter the number of human players (0, 1 or 2): "


def register(subparsers: Any) -> None:
    """Add the ``local`` subcommand."""
    parser = subparsers.add_parser("local", help="play a game in this console")
    add_game_arguments(parser, optional=True)
    parser.add_argument("--humans", type=int, choices=(0, 1, 2), help="skip the question")
    parser.add_argument(
        "--human-side", type=int, choices=(0, 1), default=0, help="your side in a 1-human game"
    )
    parser.add_argument(
        "--computer",
        default="ai:5",
        help="computer player: random, ai:LEVEL, ai:depth=D, ai:time=S or module:Class",
    )
    parser.set_defaults(handler=run)


@dataclass
class Console:
    """Where the game talks: lines in, text out."""

    stdin: TextIO
    stdout: TextIO

    def say(self, text: str = "") -> None:
        """Print a line."""
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str) -> str | None:
        """Prompt and read a line; ``None`` once the input is exhausted."""
        print(prompt, end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        return line.strip() if line else None


Chooser = Callable[[Any], Any]
"""Picks a move in a state: a person at the console or a computer player."""


def run(args: argparse.Namespace) -> int:
    """Play one game in the console; returns 0 when it ends, 1 if the input ran out."""
    game = game_from_args(args)
    console = Console(sys.stdin, sys.stdout)
    humans = args.humans if args.humans is not None else ask_humans(console)
    if humans is None:
        return 1
    computer = parse_player(args.computer)
    choosers = seat_players(game, console, humans, args.human_side, computer)
    return 0 if play_game(game, console, choosers) else 1


def ask_humans(console: Console) -> int | None:
    """Ask until the answer is 0, 1 or 2; ``None`` if the input runs out."""
    while (answer := console.ask(HUMAN_PROMPT)) is not None:
        if answer in ("0", "1", "2"):
            return int(answer)
        console.say("Please answer 0, 1 or 2.")
    return None


def seat_players(
    game: AnyGame, console: Console, humans: int, human_side: int, computer: Player
) -> list[Chooser | None]:
    """One chooser per side; ``None`` marks a person at the console."""
    people = {0: set(), 1: {human_side}, 2: {0, 1}}[humans]

    def computer_move(state: Any) -> Any:
        return computer.choose_move(game, state)

    return [None if side in people else computer_move for side in (0, 1)]


def play_game(game: AnyGame, console: Console, choosers: list[Chooser | None]) -> bool:
    """Play to the end; ``False`` if a person's input ran out first."""
    state = game.initial_state()
    console.say(game.render(state))
    while (outcome := game.outcome(state)) is None:
        side = game.to_move(state)
        chooser = choosers[side]
        move = ask_move(game, console, state) if chooser is None else chooser(state)
        if move is None:
            return False
        if chooser is not None:
            console.say(f"{game.sides[side]} plays {game.format_move(move)}")
        state = game.play(state, move)
        console.say(game.render(state))
    console.say(announce(game, outcome))
    return True


def ask_move(game: AnyGame, console: Console, state: Any) -> Any | None:
    """Read moves from the person to move until one is legal; ``None`` at end of input."""
    name = game.sides[game.to_move(state)]
    while (text := console.ask(f"{name}: Enter your move: ")) is not None:
        if not text:
            continue
        try:
            return game.parse_move(state, text)
        except (InvalidMoveError, IllegalMoveError) as error:
            console.say(f"{name}: Bad move!")
            console.say(str(error))
    return None


def announce(game: AnyGame, outcome: Outcome) -> str:
    """The closing lines: the winner and the winning line (as the 2015 console game wrote
    them), if there is one, then the game's own sentence for how it ended."""
    sentence = f"{game.ending(outcome)}."
    if outcome.winner is not None and outcome.line:
        return f"{game.sides[outcome.winner]} wins! {' '.join(outcome.line)}\n{sentence}"
    return sentence
