"""Two tiny games that implement the whole :class:`Game` contract, for testing the search.

Tic-tac-toe has transpositions and a real evaluation; take-away (Nim with one pile) reaches
the same position after different numbers of plies and, in its misère form, makes the side
that ends the game lose, as a Network step move completing both networks does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from gamut_engine import Game, Geometry, IllegalMoveError, InvalidMoveError, Outcome

TttState = tuple[int, int, int]
"""Tic-tac-toe: (bits of side 0, bits of side 1, ply); bit ``3 * row + col``, row 0 at the top."""

TTT_LINES = (
    0b000000111,
    0b000111000,
    0b111000000,
    0b001001001,
    0b010010010,
    0b100100100,
    0b100010001,
    0b001010100,
)
TTT_CELLS = tuple(f"{'abc'[i % 3]}{3 - i // 3}" for i in range(9))
_TTT_RANDOM = random.Random(3)
_TTT_ZOBRIST = tuple(_TTT_RANDOM.getrandbits(64) for _ in range(19))


def _wins(bits: int) -> int | None:
    """The first full line in ``bits``, if any."""
    return next((line for line in TTT_LINES if bits & line == line), None)


class TicTacToe(Game[TttState, int]):
    """Three in a row on a 3×3 board; a move is a cell index 0-8 (``a3`` is 0, ``c1`` is 8)."""

    name = "tictactoe"
    title = "Tic-tac-toe"
    sides = ("X", "O")
    geometry = Geometry("square", tuple(tuple(TTT_CELLS[r * 3 : r * 3 + 3]) for r in range(3)))

    @property
    def options(self) -> Mapping[str, object]:
        return {}

    def initial_state(self) -> TttState:
        return (0, 0, 0)

    def to_move(self, state: TttState) -> int:
        return state[2] & 1

    def ply(self, state: TttState) -> int:
        return state[2]

    def legal_moves(self, state: TttState) -> list[int]:
        if self.outcome(state) is not None:
            return []
        taken = state[0] | state[1]
        return [cell for cell in range(9) if not taken >> cell & 1]

    def search_moves(self, state: TttState) -> list[int]:
        """Centre first, then corners, then edges."""
        order = (4, 0, 2, 6, 8, 1, 3, 5, 7)
        legal = set(self.legal_moves(state))
        return [cell for cell in order if cell in legal]

    def play(self, state: TttState, move: int) -> TttState:
        x, o, ply = state
        if ply & 1:
            return (x, o | 1 << move, ply + 1)
        return (x | 1 << move, o, ply + 1)

    def check_move(self, state: TttState, move: int) -> None:
        if self.outcome(state) is not None:
            raise IllegalMoveError("game_over", "The game is over.")
        if (state[0] | state[1]) >> move & 1:
            raise IllegalMoveError("occupied", "That cell is taken.")

    def outcome(self, state: TttState) -> Outcome | None:
        for side in (0, 1):
            line = _wins(state[side])
            if line is not None:
                cells = tuple(TTT_CELLS[i] for i in range(9) if line >> i & 1)
                return Outcome(side, "three", cells)
        if state[2] == 9:
            return Outcome(None, "full")
        return None

    def parse_move(self, state: TttState, text: str) -> int:
        if text not in TTT_CELLS:
            raise InvalidMoveError(f"{text!r} is not a cell")
        move = TTT_CELLS.index(text)
        self.check_move(state, move)
        return move

    def format_move(self, move: int) -> str:
        return TTT_CELLS[move]

    def move_cells(self, move: int) -> tuple[str, ...]:
        return (TTT_CELLS[move],)

    def encode(self, state: TttState) -> str:
        marks = "".join("XO-"[owner if owner is not None else 2] for owner in self.occupancy(state))
        return f"{marks} {'XO'[state[2] & 1]}"

    def decode(self, text: str) -> TttState:
        marks, _ = text.split()
        x = sum(1 << i for i, mark in enumerate(marks) if mark == "X")
        o = sum(1 << i for i, mark in enumerate(marks) if mark == "O")
        return (x, o, marks.count("X") + marks.count("O"))

    def render(self, state: TttState) -> str:
        marks = self.encode(state).split()[0]
        return "\n".join(marks[r * 3 : r * 3 + 3] for r in range(3))

    def occupancy(self, state: TttState) -> tuple[int | None, ...]:
        return tuple(0 if state[0] >> i & 1 else 1 if state[1] >> i & 1 else None for i in range(9))

    def key(self, state: TttState) -> int:
        key = _TTT_ZOBRIST[18] if state[2] & 1 else 0
        for i in range(9):
            if state[0] >> i & 1:
                key ^= _TTT_ZOBRIST[i]
            elif state[1] >> i & 1:
                key ^= _TTT_ZOBRIST[9 + i]
        return key

    def evaluate(self, state: TttState) -> int:
        """Lines still open to the side to move minus those open to the opponent, ×10."""
        mine, theirs = (state[1], state[0]) if state[2] & 1 else (state[0], state[1])
        open_mine = sum(1 for line in TTT_LINES if not line & theirs)
        open_theirs = sum(1 for line in TTT_LINES if not line & mine)
        return 10 * (open_mine - open_theirs)


NimState = tuple[int, int]
"""Take-away: (stones left, ply)."""


class TakeAway(Game[NimState, int]):
    """One pile; each turn takes 1 to 3 stones. Normal play: taking the last stone wins.

    In the misère form the side that takes the last stone loses.
    """

    name = "takeaway"
    sides = ("First", "Second")

    def __init__(self, stones: int = 15, misere: bool = False) -> None:
        self.stones = stones
        self.misere = misere
        self.title = f"Take-away from {stones}{' (misère)' if misere else ''}"
        self.geometry = Geometry("square", (tuple(f"s{i}" for i in range(1, stones + 1)),))

    @property
    def options(self) -> Mapping[str, object]:
        return {"stones": self.stones, "misere": self.misere}

    def initial_state(self) -> NimState:
        return (self.stones, 0)

    def to_move(self, state: NimState) -> int:
        return state[1] & 1

    def ply(self, state: NimState) -> int:
        return state[1]

    def legal_moves(self, state: NimState) -> list[int]:
        return list(range(1, min(3, state[0]) + 1))

    def play(self, state: NimState, move: int) -> NimState:
        return (state[0] - move, state[1] + 1)

    def check_move(self, state: NimState, move: int) -> None:
        if move not in self.legal_moves(state):
            raise IllegalMoveError("too_many", "Take 1 to 3 stones, no more than are left.")

    def outcome(self, state: NimState) -> Outcome | None:
        if state[0] > 0:
            return None
        last_mover = (state[1] - 1) & 1
        return Outcome(1 - last_mover if self.misere else last_mover, "empty")

    def parse_move(self, state: NimState, text: str) -> int:
        if not text.isdigit():
            raise InvalidMoveError(f"{text!r} is not a number of stones")
        move = int(text)
        self.check_move(state, move)
        return move

    def format_move(self, move: int) -> str:
        return str(move)

    def move_cells(self, move: int) -> tuple[str, ...]:
        return tuple(f"s{i}" for i in range(1, move + 1))

    def encode(self, state: NimState) -> str:
        return f"{state[0]} {state[1] & 1}"

    def decode(self, text: str) -> NimState:
        stones, side = text.split()
        return (int(stones), int(side))

    def render(self, state: NimState) -> str:
        return "o" * state[0] or "(empty)"

    def occupancy(self, state: NimState) -> tuple[int | None, ...]:
        return (None,) * self.stones

    def key(self, state: NimState) -> int:
        """Depends on the stones and the side to move only, not on the ply."""
        return state[0] * 2 + (state[1] & 1)

    def evaluate(self, state: NimState) -> int:
        """A deliberately rough guess so that depth matters: more stones left looks better."""
        return state[0] * 7 % 11 - 5
