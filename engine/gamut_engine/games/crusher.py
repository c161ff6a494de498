"""Crusher: slide, leap and crush on a hexagon with ``n`` cells a side.

White (side 0) starts on the top two rows and moves first, Black on the bottom two. A piece
slides to an adjacent empty cell, or leaps over one adjacent piece of its own onto the cell
straight beyond, which must be empty or hold an enemy piece (crushed and removed). No move may
recreate a board that has occurred before in the game. A side wins when the enemy is down to
``n - 1`` pieces, or when the enemy is to move and has no legal move.

Cells are named by row letter from the top and position in the row from the left (``a1`` is
the top-left cell); moves are written ``a1-c3`` and, for a crush, ``d3xb2``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import ClassVar, NamedTuple

from gamut_engine.core import (
    DEFAULT_MAX_PLIES,
    Game,
    Geometry,
    IllegalMoveError,
    InvalidMoveError,
    LadderPool,
    OptionSpec,
    Outcome,
)
from gamut_engine.games.crusher_board import (
    MAX_N,
    MIN_N,
    Board,
    BoardLike,
    Layout,
    board_from_list,
    board_from_text,
    board_to_string,
)
from gamut_engine.games.crusher_eval import CrusherEvaluator
from gamut_engine.games.crusher_moves import CrusherMove, MoveGenerator
from gamut_engine.games.crusher_rules import MoveChecker

MOVE_PATTERN = re.compile(r"\s*([a-z])(\d+)\s*([-x])\s*([a-z])(\d+)\s*", re.IGNORECASE)
SIDE_LETTERS = ("w", "b")
NO_HISTORY: frozenset[int] = frozenset()


class CrusherState(NamedTuple):
    """A Crusher position with the boards that may not recur."""

    board: int
    """White's pieces in the low bits, Black's above them (see :class:`Layout`)."""
    side: int
    """The side to move: 0 White, 1 Black."""
    ply: int
    """Moves played so far."""
    key: int
    """Zobrist key of the board and side to move."""
    history: frozenset[int]
    """Earlier boards since the last crush (older ones hold more pieces and cannot recur)."""


_new_state = CrusherState._make
"""Build a state from a tuple without the keyword handling of the constructor (hot path)."""


class CrusherGame(Game[CrusherState, CrusherMove]):
    """Crusher on a hexagon of ``n`` cells a side (2 ≤ n ≤ 13)."""

    name = "crusher"
    sides = ("White", "Black")
    option_specs = (
        OptionSpec(
            name="n",
            default=3,
            help="cells along each edge of the hexagon",
            minimum=MIN_N,
            maximum=MAX_N,
        ),
    )
    notation = "from-to cells (a1-b2) to slide or leap, with x to crush (d3xb2)"
    endings: ClassVar[Mapping[str, str]] = {
        "crushed": "{winner} crushes enough of {loser}'s pieces",
        "no_moves": "{loser} cannot move: {winner} wins",
    }
    ladder_pools = (LadderPool("crusher-3", "Crusher n=3, 5 s a move", {"n": 3}),)
    move_seconds = 5.0
    listing_order = 4
    perft_counts = (14, 184, 2_618)
    """Move paths from the start at depths 1, 2…: as the rules tests count them."""
    evaluation_scale = 1214.0

    def __init__(self, *, n: int = 3, max_plies: int = DEFAULT_MAX_PLIES) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or not MIN_N <= n <= MAX_N:
            raise ValueError(f"n, the cells on each side, must be a whole number {MIN_N}–{MAX_N}")
        if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
            raise ValueError("max_plies must be a whole number of at least 1")
        self.check_options(n=n, max_plies=max_plies)
        self.n = n
        """Cells on each side of the hexagon."""
        self.max_plies = max_plies
        """Plies after which an unfinished game is drawn."""
        self.title = f"Crusher n={n}"
        self.layout = Layout(n)
        """The board's precomputed tables."""
        self.generator = MoveGenerator(self.layout)
        """Move generation on bitboards."""
        self.checker = MoveChecker(self.layout)
        """The rules a move must follow, with a reason for each."""
        self.evaluator = CrusherEvaluator(self.layout)
        """The static evaluation behind :meth:`evaluate`."""
        self.geometry = Geometry("hex", self.layout.rows)

    @property
    def options(self) -> Mapping[str, object]:
        """``n`` and ``max_plies``."""
        return {"n": self.n, "max_plies": self.max_plies}

    # --- positions -------------------------------------------------------------------------

    def initial_state(self) -> CrusherState:
        """Both sides on their two home rows, White to move."""
        return self._state(self.layout.start, 0, 0, NO_HISTORY)

    def _state(self, board: int, side: int, ply: int, history: frozenset[int]) -> CrusherState:
        return CrusherState(board, side, ply, self.layout.key_of(board, side), history)

    def state_from_board(self, board: BoardLike, side: int | str = 0, ply: int = 0) -> CrusherState:
        """A position from one board, with ``side`` to move and no earlier boards.

        The board is a tuple, a list of ``w``/``b``/``nil`` or any text
        :func:`board_from_text` reads.
        """
        value = self.layout.board_int(self._board_arg(board))
        return self._state(value, _side(side), ply, NO_HISTORY)

    def state_from_history(self, boards: Sequence[BoardLike], side: int | str) -> CrusherState:
        """The position of a seed-style game history: boards most recent first.

        Each board is a tuple, a list of ``w``/``b``/``nil`` or any text
        :func:`board_from_text` reads; ``side`` (``0``/``"w"`` or ``1``/``"b"``) is to move.
        Every earlier board is remembered so no move can recreate it.
        """
        if not boards:
            raise ValueError("a game history needs at least the current board")
        values = [self.layout.board_int(self._board_arg(board)) for board in boards]
        current = values[0]
        counts = self._counts(current)
        earlier = frozenset(v for v in values[1:] if self._counts(v) == counts and v != current)
        return self._state(current, _side(side), len(values) - 1, earlier)

    def board(self, state: CrusherState) -> Board:
        """The position's public board tuple (as :meth:`occupancy`)."""
        return self.layout.board_tuple(state.board)

    def _board_arg(self, board: BoardLike) -> Board:
        if isinstance(board, str):
            return board_from_text(board, self.n)
        return board_from_list(board, self.n)

    def _crushed(self, board: int) -> bool:
        layout = self.layout
        n = self.n
        return (board & layout.mask).bit_count() < n or (board >> layout.half).bit_count() < n

    def _counts(self, board: int) -> tuple[int, int]:
        layout = self.layout
        return (board & layout.mask).bit_count(), (board >> layout.half).bit_count()

    def to_move(self, state: CrusherState) -> int:
        """The side to move."""
        return state.side

    def ply(self, state: CrusherState) -> int:
        """Moves played so far."""
        return state.ply

    def key(self, state: CrusherState) -> int:
        """Zobrist key of the board and side to move (history not included)."""
        return state.key

    def occupancy(self, state: CrusherState) -> tuple[int | None, ...]:
        """The owner of each cell in cell order."""
        return self.layout.board_tuple(state.board)

    # --- moves -----------------------------------------------------------------------------

    def legal_moves(self, state: CrusherState) -> list[CrusherMove]:
        """Every legal move, crushes first, then leaps, then slides; none once the game ends."""
        if state.ply >= self.max_plies or self._crushed(state.board):
            return []
        return self.generator.moves(state.board, state.side, state.history)

    def search_moves(self, state: CrusherState) -> list[CrusherMove]:
        """The legal moves in search order: crushes, then leaps, then slides."""
        return self.legal_moves(state)

    def play(self, state: CrusherState, move: CrusherMove) -> CrusherState:
        """The position after ``move``, trusted to be legal."""
        origin, target, crush = move
        side = state.side
        layout = self.layout
        bits = layout.bits
        own = layout.zobrist[side]
        key = state.key ^ own[origin] ^ own[target] ^ layout.zobrist_black_to_move
        board = state.board ^ ((bits[origin] | bits[target]) << (side * layout.half))
        if crush:
            board ^= bits[target] << ((1 - side) * layout.half)
            key ^= layout.zobrist[1 - side][target]
            return _new_state((board, 1 - side, state.ply + 1, key, NO_HISTORY))
        history = state.history | {state.board}
        return _new_state((board, 1 - side, state.ply + 1, key, history))

    def check_move(self, state: CrusherState, move: CrusherMove) -> None:
        """Raise :class:`IllegalMoveError` with the rule ``move`` breaks, if any."""
        if self.outcome(state) is not None:
            raise IllegalMoveError("game_over", "The game is over; no more moves can be played.")
        self.checker.check(state.board, state.side, move)
        if state.board ^ self.generator.delta(move, state.side) in state.history:
            raise IllegalMoveError(
                "repeated_position",
                "That move would recreate a board that has already occurred in this game.",
            )

    def parse_move(self, state: CrusherState, text: str) -> CrusherMove:
        """Read ``a1-b2`` or ``d3xb2`` (either separator) and check the move is legal."""
        found = MOVE_PATTERN.fullmatch(text)
        if found is None:
            raise InvalidMoveError(
                f"expected a move such as a1-b2 or d3xb2 (two cells, row letter and position, "
                f"joined by - or x), not {text!r}"
            )
        if self.outcome(state) is not None:
            raise IllegalMoveError("game_over", "The game is over; no more moves can be played.")
        origin = self.checker.cell_index(found[1] + found[2])
        target = self.checker.cell_index(found[4] + found[5])
        _, enemy, _ = self.generator.sides(state.board, state.side)
        move = CrusherMove(origin, target, bool(enemy & self.layout.bits[target]))
        self.check_move(state, move)
        return move

    def format_move(self, move: CrusherMove) -> str:
        """``a1-c3`` for a slide or leap, ``d3xb2`` for a crush."""
        names = self.layout.names
        return f"{names[move.origin]}{'x' if move.crush else '-'}{names[move.target]}"

    def move_cells(self, move: CrusherMove) -> tuple[str, ...]:
        """``(from, to)``."""
        names = self.layout.names
        return names[move.origin], names[move.target]

    # --- endings ---------------------------------------------------------------------------

    def outcome(self, state: CrusherState) -> Outcome | None:
        """A win by crushing, a win because the side to move cannot move, or the move cap."""
        white, black = self._counts(state.board)
        counts = (white, black)
        side = state.side
        if counts[side] < self.n:
            return Outcome(1 - side, "crushed")
        if counts[1 - side] < self.n:
            return Outcome(side, "crushed")
        if not self.generator.has_move(state.board, side, state.history):
            return Outcome(1 - side, "no_moves")
        if state.ply >= self.max_plies:
            return Outcome(None, "move_cap")
        return None

    def evaluate(self, state: CrusherState) -> int:
        """Heuristic worth of the position for the side to move (see :mod:`crusher_eval`)."""
        return self.evaluator.evaluate(state.board, state.side)

    # --- text ------------------------------------------------------------------------------

    def encode(self, state: CrusherState) -> str:
        """``WWW-WW-------BB-BBB w 0``: the cells in cell order, side to move, ply."""
        board = board_to_string(self.board(state))
        return f"{board} {SIDE_LETTERS[state.side]} {state.ply}"

    def decode(self, text: str) -> CrusherState:
        """The position an :meth:`encode` text describes, with no earlier boards."""
        parts = text.split()
        if len(parts) not in (2, 3) or parts[1].lower() not in SIDE_LETTERS:
            raise ValueError("expected a board string, w or b for the side to move, and the ply")
        if len(parts) == 3 and not parts[2].isdigit():
            raise ValueError(f"the ply must be a whole number, not {parts[2]!r}")
        ply = int(parts[2]) if len(parts) == 3 else 0
        return self.state_from_board(parts[0], parts[1], ply)

    def render(self, state: CrusherState) -> str:
        """The board with row letters on the left and each row's cell names on the right."""
        board = board_to_string(self.board(state))
        widest = 2 * self.n - 1
        lines: list[str] = []
        start = 0
        for row in self.layout.rows:
            cells = "   ".join(board[start : start + len(row)])
            pad = " " * (2 * (widest - len(row)))
            lines.append(f"{row[0][0]}  {pad}{cells}{pad}   {row[0]}-{row[-1]}")
            start += len(row)
        white, black = self._counts(state.board)
        lines.append(f"{self.sides[state.side]} to move; White {white} pieces, Black {black}")
        return "\n".join(lines)


def _side(side: int | str) -> int:
    if isinstance(side, str) and side.lower() in SIDE_LETTERS:
        return SIDE_LETTERS.index(side.lower())
    if isinstance(side, int) and not isinstance(side, bool) and side in (0, 1):
        return side
    raise ValueError(f"the side to move must be w or b (0 or 1), not {side!r}")
