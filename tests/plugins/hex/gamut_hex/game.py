"""Hex (Piet Hein, John Nash) on a ``size`` × ``size`` rhombus of hexagons.

Red (side 0) moves first and joins the top and bottom rows; Blue joins the left and
right columns. A move places a stone on any empty cell; the board can never fill up
without one side joined, so the game has no draw but the ply cap.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Mapping
from typing import ClassVar, NamedTuple

from gamut_engine import (
    DEFAULT_MAX_PLIES,
    Game,
    Geometry,
    IllegalMoveError,
    InvalidMoveError,
    Line,
    OptionSpec,
    Outcome,
    Place,
)

ROW_HEIGHT = math.sqrt(3) / 2
"""How far apart two rows of pointy-topped hexagons are, in cell widths."""

SYMBOLS = ("R", "B")
"""Red's and Blue's stones in encodings and renderings."""


class HexState(NamedTuple):
    """A position: each side's stones as bits (cell ``row * size + column``)."""

    red: int
    blue: int
    ply: int
    key: int


class HexGame(Game[HexState, int]):
    """Hex on a ``size`` × ``size`` rhombus; a move is a cell index."""

    name = "hex"
    sides = ("Red", "Blue")
    option_specs = (
        OptionSpec(name="size", default=5, help="cells along each side", minimum=2, maximum=9),
    )
    notation = "name an empty cell: its column letter, then its row number from the top (c3)"
    endings: ClassVar[Mapping[str, str]] = {"joined": "{winner} joins their two sides"}
    move_seconds = 1.0
    perft_counts = (25, 600, 13_800)
    """Every empty cell at each ply: no game can end before Red's fifth stone."""

    def __init__(self, *, size: int = 5, max_plies: int = DEFAULT_MAX_PLIES) -> None:
        self.check_options(size=size, max_plies=max_plies)
        self.size = size
        self.max_plies = max_plies
        self.title = f"Hex {size}×{size}"
        columns = "abcdefghi"[:size]
        self.names = tuple(f"{columns[c]}{r + 1}" for r in range(size) for c in range(size))
        self.neighbours = tuple(self._neighbours(cell) for cell in range(size * size))
        rng = random.Random(size)
        self.zobrist = tuple(tuple(rng.getrandbits(64) for _ in self.names) for _ in SYMBOLS)
        self.geometry = self._geometry(columns)

    def _geometry(self, columns: str) -> Geometry:
        n = self.size
        rows = tuple(self.names[r * n : (r + 1) * n] for r in range(n))
        places = {
            self.names[r * n + c]: Place(c + r / 2, r * ROW_HEIGHT, "hex_pointy")
            for r in range(n)
            for c in range(n)
        }
        lines = tuple(Line(columns[c], tuple(row[c] for row in rows)) for c in range(n))
        return Geometry(
            "plane",
            rows,
            areas={"goal:0": frozenset(rows[0] + rows[-1]), "goal:1": frozenset(columns_of(rows))},
            places=places,
            row_names=tuple(str(r + 1) for r in range(n)),
            columns=lines,
        )

    def _neighbours(self, cell: int) -> tuple[int, ...]:
        n = self.size
        r, c = divmod(cell, n)
        steps = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))
        return tuple(
            (r + dr) * n + c + dc for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n
        )

    @property
    def options(self) -> Mapping[str, object]:
        return {"size": self.size, "max_plies": self.max_plies}

    def initial_state(self) -> HexState:
        return HexState(0, 0, 0, 0)

    def to_move(self, state: HexState) -> int:
        return state.ply & 1

    def ply(self, state: HexState) -> int:
        return state.ply

    def legal_moves(self, state: HexState) -> list[int]:
        if self.outcome(state) is not None:
            return []
        taken = state.red | state.blue
        return [cell for cell in range(len(self.names)) if not taken >> cell & 1]

    def play(self, state: HexState, move: int) -> HexState:
        side = state.ply & 1
        key = state.key ^ self.zobrist[side][move]
        if side:
            return HexState(state.red, state.blue | 1 << move, state.ply + 1, key)
        return HexState(state.red | 1 << move, state.blue, state.ply + 1, key)

    def check_move(self, state: HexState, move: int) -> None:
        if self.outcome(state) is not None:
            raise IllegalMoveError("game_over", "The game is over; no more stones can be placed.")
        if (state.red | state.blue) >> move & 1:
            raise IllegalMoveError("occupied", "That cell holds a stone; choose an empty one.")

    def outcome(self, state: HexState) -> Outcome | None:
        if state.ply == 0:
            return None
        mover = 1 - (state.ply & 1)
        path = self._joined(state.blue if mover else state.red, mover)
        if path:
            return Outcome(mover, "joined", path)
        if state.ply >= self.max_plies:
            return Outcome(None, "move_cap")
        return None

    def _edges(self, side: int) -> tuple[range, frozenset[int]]:
        """The cells of ``side``'s first edge and of its second."""
        n = self.size
        if side == 0:
            return range(n), frozenset(range(n * n - n, n * n))
        return range(0, n * n, n), frozenset(range(n - 1, n * n, n))

    def _joined(self, stones: int, side: int) -> tuple[str, ...]:
        """A chain of ``side``'s stones joining its two edges, first edge first, if any."""
        starts, ends = self._edges(side)
        parent: dict[int, int | None] = {cell: None for cell in starts if stones >> cell & 1}
        frontier = deque(parent)
        while frontier:
            cell = frontier.popleft()
            if cell in ends:
                path = [cell]
                while (previous := parent[path[-1]]) is not None:
                    path.append(previous)
                return tuple(self.names[c] for c in reversed(path))
            for other in self.neighbours[cell]:
                if stones >> other & 1 and other not in parent:
                    parent[other] = cell
                    frontier.append(other)
        return ()

    def distance(self, state: HexState, side: int) -> int:
        """The fewest empty cells ``side`` must still fill to join its edges."""
        own, other = (state.red, state.blue) if side == 0 else (state.blue, state.red)
        starts, ends = self._edges(side)
        best = {cell: 0 if own >> cell & 1 else 1 for cell in starts if not other >> cell & 1}
        queue = deque(sorted(best, key=best.__getitem__))
        while queue:
            cell = queue.popleft()
            for step in self.neighbours[cell]:
                if other >> step & 1:
                    continue
                cost = best[cell] + (0 if own >> step & 1 else 1)
                if cost < best.get(step, len(self.names) + 1):
                    best[step] = cost
                    if cost == best[cell]:
                        queue.appendleft(step)
                    else:
                        queue.append(step)
        return min((best[cell] for cell in ends if cell in best), default=len(self.names))

    def evaluate(self, state: HexState) -> int:
        """How much closer the side to move is to joining its edges than the other side."""
        side = state.ply & 1
        return 100 * (self.distance(state, 1 - side) - self.distance(state, side))

    def parse_move(self, state: HexState, text: str) -> int:
        try:
            move = self.names.index(text.strip().lower())
        except ValueError:
            raise InvalidMoveError(f"{text!r} is not a cell of this board") from None
        self.check_move(state, move)
        return move

    def format_move(self, move: int) -> str:
        return self.names[move]

    def move_cells(self, move: int) -> tuple[str, ...]:
        return (self.names[move],)

    def encode(self, state: HexState) -> str:
        symbols = "".join(
            "-" if owner is None else SYMBOLS[owner] for owner in self.occupancy(state)
        )
        n = self.size
        rows = "/".join(symbols[r * n : (r + 1) * n] for r in range(n))
        return f"{rows} {SYMBOLS[state.ply & 1]}"

    def decode(self, text: str) -> HexState:
        rows, _, side = text.strip().rpartition(" ")
        cells = rows.replace("/", "")
        if len(cells) != len(self.names) or side not in SYMBOLS:
            raise ValueError(f"{text!r} is not a {self.title} position")
        red = sum(1 << i for i, symbol in enumerate(cells) if symbol == "R")
        blue = sum(1 << i for i, symbol in enumerate(cells) if symbol == "B")
        key = 0
        for cell in range(len(cells)):
            for index, stones in enumerate((red, blue)):
                if stones >> cell & 1:
                    key ^= self.zobrist[index][cell]
        ply = red.bit_count() + blue.bit_count()
        if ply & 1 != SYMBOLS.index(side):
            raise ValueError(f"{text!r}: the side to move does not match the stones")
        return HexState(red, blue, ply, key)

    def render(self, state: HexState) -> str:
        n = self.size
        owners = self.occupancy(state)
        lines = [
            " " * r
            + f"{r + 1:>2} "
            + " ".join("." if o is None else SYMBOLS[o] for o in owners[r * n : (r + 1) * n])
            for r in range(n)
        ]
        return "\n".join(["    " + " ".join("abcdefghi"[:n]), *lines])

    def occupancy(self, state: HexState) -> tuple[int | None, ...]:
        return tuple(
            0 if state.red >> cell & 1 else 1 if state.blue >> cell & 1 else None
            for cell in range(len(self.names))
        )

    def key(self, state: HexState) -> int:
        return state.key ^ (state.ply & 1)


def columns_of(rows: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """The cells of the first and the last column."""
    return tuple(row[0] for row in rows) + tuple(row[-1] for row in rows)
