"""Connect Four: a gravity game made with ``gamut new-game``.

Red (side 0) moves first. A move drops a stone into a column, where it falls to the lowest
empty cell; whoever first lines up ``connect`` stones in a row, a column or a diagonal
wins, and a full board is a draw. Change the rules below to make your own game: the
conformance kit (``gamut check-game connect4``) says when the contract slips.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar, NamedTuple

from gamut_engine import (
    DEFAULT_MAX_PLIES,
    Game,
    Geometry,
    IllegalMoveError,
    InvalidMoveError,
    OptionSpec,
    Outcome,
)

LETTERS = "abcdefghi"
"""Column names, left to right."""

SYMBOLS = ("R", "Y")
"""Each side's stones in encodings and renderings."""

STEPS = ((0, 1), (1, 0), (1, 1), (1, -1))
"""The four directions a line runs in: along a row, a column and the two diagonals."""


class State(NamedTuple):
    """A position. Immutable and hashable, as the engine requires of every state."""

    stones: tuple[int, int]
    """Each side's stones as bits: bit ``i`` is the ``i``-th cell in geometry order."""
    ply: int
    """Moves played so far; side ``ply % 2`` is to move."""
    key: int
    """The Zobrist key of the stones, kept up to date move by move."""


class Connect4Game(Game[State, int]):
    """Connect Four on a ``width`` × ``height`` board; a move is the index of the cell its
    stone lands on, a position-free name for it (as a chess move names its squares)."""

    # What the game declares about itself: the server, the clients and the commands
    # read these, so none of them needs to know the game.
    name = "connect4"
    sides = ("Red", "Yellow")
    colours = ("#c62828", "#f2c400")
    option_specs = (
        OptionSpec("width", 7, "columns on the board", minimum=4, maximum=9),
        OptionSpec("height", 6, "rows on the board", minimum=4, maximum=9),
        OptionSpec("connect", 4, "stones in a row that win", choices=(3, 4, 5)),
    )
    notation = "name a column by its letter (d), or the cell its stone lands on (d1)"
    endings: ClassVar[Mapping[str, str]] = {
        "line": "{winner} lines up a row of stones",
        "full": "the board is full: a draw",
    }
    perft_counts = (7, 49, 343, 2_401)
    """Seven columns to drop into at each ply: no column fills before the sixth stone."""
    move_seconds = 1.0

    def __init__(
        self,
        *,
        width: int = 7,
        height: int = 6,
        connect: int = 4,
        max_plies: int = DEFAULT_MAX_PLIES,
    ) -> None:
        self.check_options(width=width, height=height, connect=connect, max_plies=max_plies)
        self.width, self.height, self.connect, self.max_plies = width, height, connect, max_plies
        self.title = f"Connect Four {width}×{height}"
        # Cells in geometry order: the top row first, each row left to right; row numbers
        # count from the bottom, so the bottom-left cell is a1.
        self.names = tuple(f"{LETTERS[c]}{height - r}" for r in range(height) for c in range(width))
        rows = tuple(self.names[r * width : (r + 1) * width] for r in range(height))
        columns = tuple(tuple(row[c] for row in rows) for c in range(width))
        # pick_lines: a click (or Enter) on any cell of a column chooses the column's move.
        self.geometry = Geometry("square", rows, pick_lines=columns)
        self.lines = self._lines()
        rng = random.Random(width * 100 + height)
        self.zobrist = tuple(tuple(rng.getrandbits(64) for _ in self.names) for _ in SYMBOLS)

    def _lines(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Every run of ``connect`` cells in a line: its bit mask and its cells."""
        found = []
        for r in range(self.height):
            for c in range(self.width):
                for dr, dc in STEPS:
                    run = [(r + dr * k, c + dc * k) for k in range(self.connect)]
                    if all(0 <= rr < self.height and 0 <= cc < self.width for rr, cc in run):
                        cells = tuple(rr * self.width + cc for rr, cc in run)
                        found.append((sum(1 << cell for cell in cells), cells))
        return tuple(found)

    @property
    def options(self) -> Mapping[str, object]:
        return {
            "width": self.width,
            "height": self.height,
            "connect": self.connect,
            "max_plies": self.max_plies,
        }

    def initial_state(self) -> State:
        return State((0, 0), 0, 0)

    def to_move(self, state: State) -> int:
        return state.ply & 1

    def ply(self, state: State) -> int:
        return state.ply

    def landing(self, state: State, column: int) -> int | None:
        """The cell a stone dropped into ``column`` lands on; ``None`` if it is full."""
        taken = state.stones[0] | state.stones[1]
        for r in range(self.height - 1, -1, -1):
            cell = r * self.width + column
            if not taken >> cell & 1:
                return cell
        return None

    def legal_moves(self, state: State) -> list[int]:
        if self.outcome(state) is not None:
            return []
        cells = (self.landing(state, column) for column in range(self.width))
        return [cell for cell in cells if cell is not None]

    def play(self, state: State, move: int) -> State:
        side = state.ply & 1
        stones = list(state.stones)
        stones[side] |= 1 << move
        return State((stones[0], stones[1]), state.ply + 1, state.key ^ self.zobrist[side][move])

    def check_move(self, state: State, move: int) -> None:
        # Each refusal has a stable code and a sentence for the player.
        if self.outcome(state) is not None:
            raise IllegalMoveError("game_over", "The game is over; no more stones can be dropped.")
        if (state.stones[0] | state.stones[1]) >> move & 1:
            raise IllegalMoveError("occupied", f"{self.names[move]} already holds a stone.")
        if self.landing(state, move % self.width) != move:
            raise IllegalMoveError("floating", "A stone falls to the lowest empty cell.")

    def outcome(self, state: State) -> Outcome | None:
        mover = 1 - (state.ply & 1)  # only the side that just moved can have a new line
        for mask, cells in self.lines:
            if state.stones[mover] & mask == mask:
                return Outcome(mover, "line", tuple(self.names[cell] for cell in cells))
        if state.ply == len(self.names):
            return Outcome(None, "full")
        if state.ply >= self.max_plies:
            return Outcome(None, "move_cap")  # the engine's ending, which every game has
        return None

    def evaluate(self, state: State) -> int:
        """The AI's view of a running position, for the side to move: each run still open
        to one side counts for it, more the more stones it already holds."""
        side = state.ply & 1
        mine, theirs = state.stones[side], state.stones[1 - side]
        score = 0
        for mask, _ in self.lines:
            if not theirs & mask:
                score += (mine & mask).bit_count() ** 2
            elif not mine & mask:
                score -= (theirs & mask).bit_count() ** 2
        return score

    def parse_move(self, state: State, text: str) -> int:
        word = text.strip().lower()
        if len(word) == 1 and word in LETTERS[: self.width]:
            cell = self.landing(state, LETTERS.index(word))
            if cell is None:
                raise IllegalMoveError("full_column", f"Column {word} is full.")
        elif word in self.names:
            cell = self.names.index(word)
        else:
            raise InvalidMoveError(f"{text!r} is neither a column nor a cell of this board")
        self.check_move(state, cell)
        return cell

    def format_move(self, move: int) -> str:
        return self.names[move]

    def move_cells(self, move: int) -> tuple[str, ...]:
        return (self.names[move],)

    def encode(self, state: State) -> str:
        owners = self.occupancy(state)
        symbols = "".join("-" if owner is None else SYMBOLS[owner] for owner in owners)
        rows = (symbols[r * self.width : (r + 1) * self.width] for r in range(self.height))
        return f"{'/'.join(rows)} {SYMBOLS[state.ply & 1]}"

    def decode(self, text: str) -> State:
        rows, _, side = text.strip().rpartition(" ")
        cells = rows.replace("/", "")
        if len(cells) != len(self.names) or side not in SYMBOLS or set(cells) - {"-", *SYMBOLS}:
            raise ValueError(f"{text!r} is not a {self.title} position")
        stones = tuple(
            sum(1 << i for i, symbol in enumerate(cells) if symbol == mark) for mark in SYMBOLS
        )
        key = 0
        for index, bits in enumerate(stones):
            for cell in range(len(cells)):
                if bits >> cell & 1:
                    key ^= self.zobrist[index][cell]
        ply = stones[0].bit_count() + stones[1].bit_count()
        if ply & 1 != SYMBOLS.index(side):
            raise ValueError(f"{text!r}: the side to move does not match the stones")
        return State((stones[0], stones[1]), ply, key)

    def render(self, state: State) -> str:
        marks = ["." if owner is None else SYMBOLS[owner] for owner in self.occupancy(state)]
        lines = [
            f"{self.height - r} " + " ".join(marks[r * self.width : (r + 1) * self.width])
            for r in range(self.height)
        ]
        return "\n".join([*lines, "  " + " ".join(LETTERS[: self.width])])

    def occupancy(self, state: State) -> tuple[int | None, ...]:
        red, yellow = state.stones
        return tuple(
            0 if red >> cell & 1 else 1 if yellow >> cell & 1 else None
            for cell in range(len(self.names))
        )

    def key(self, state: State) -> int:
        return state.key ^ (state.ply & 1)
