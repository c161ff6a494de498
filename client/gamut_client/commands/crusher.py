"""``gamut crusher``: the CS 2360 Crusher project's ``crusher`` function on the command line.

Reads the game's history from standard input (or ``--history``), most recent board
first: the original Lisp list ``((w w w nil …) (…))`` or one board per line such as
``WWW-WW-------BB-BBB``. Prints the board after SIDE's move, chosen by a search exactly
DEPTH plies deep, in the form the boards came in. With ``--trace`` the search's trace
goes to standard error, so standard output holds only the board.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from gamut_client.commands.standalone import run_alone
from gamut_engine.adapters.crusher_function import crusher, read_history
from gamut_engine.games.crusher_board import board_from_text, side_for_cell_count
from gamut_engine.search.trace import DEFAULT_TRACE_LINES


def register(subparsers: Any) -> None:
    """Add the ``crusher`` subcommand."""
    parser = subparsers.add_parser(
        "crusher", help="the Crusher function: print the next Crusher board for a game history"
    )
    parser.add_argument("side", choices=["w", "b"], help="the side to move: w or b")
    parser.add_argument("depth", type=int, help="plies the search looks ahead, exactly")
    parser.add_argument("--trace", action="store_true", help="trace the search on stderr")
    parser.add_argument("--n", type=int, help="cells on each side (default: from the board)")
    parser.add_argument("--history", help="the history as text (default: standard input)")
    parser.add_argument(
        "--trace-lines",
        type=int,
        default=DEFAULT_TRACE_LINES,
        help=f"trace lines before it only counts (default {DEFAULT_TRACE_LINES:,})",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the next board; 2 with the reason for input that cannot be played."""
    text = sys.stdin.read() if args.history is None else args.history
    try:
        boards = read_history(text)
        n = args.n if args.n is not None else board_side(boards[0])
        board = crusher(
            boards,
            args.side,
            args.depth,
            args.trace,
            n,
            stream=sys.stderr,
            trace_lines=args.trace_lines,
        )
    except ValueError as error:
        print(f"gamut crusher: {error}", file=sys.stderr)
        return 2
    print(board)
    return 0


def board_side(board: str) -> int:
    """The ``n`` of a board text, from its number of cells."""
    n = side_for_cell_count(len(board_from_text(board)))
    if n is None:
        raise ValueError("no hexagonal board has that many cells")
    return n


if __name__ == "__main__":
    sys.exit(run_alone("crusher", register))
