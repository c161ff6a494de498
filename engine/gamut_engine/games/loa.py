"""Lines of Action (Claude Soucie) on 5×5, 6×6 and 8×8 boards.

A piece moves in a straight line exactly as many cells as there are pieces of
both colours on that whole line, jumping its own pieces but never an enemy one,
and captures by landing on an enemy piece. A side whose pieces form one
8-connected group wins; when a move leaves both sides connected, the mover wins.
A side with no piece move passes. A position seen for the third time is a draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, NamedTuple

from gamut_engine.core import (
    DEFAULT_MAX_PLIES,
    REPETITION_LIMIT,
    Game,
    Geometry,
    IllegalMoveError,
    LadderPool,
    OptionSpec,
    Outcome,
)
from gamut_engine.games import loa_eval, loa_notation
from gamut_engine.games.loa_board import PASS, SIZES, LoaBoard, LoaMove, bits, board_for

__all__ = ["PASS", "LinesOfActionGame", "LoaMove", "LoaState"]

RUNNING, BLACK_WINS, WHITE_WINS, REPETITION, MOVE_CAP = range(5)
"""Values of :attr:`LoaState.status`."""


class LoaState(NamedTuple):
    """A Lines of Action position with what the ending rules need."""

    black: int
    """Mask of Black's pieces (side 0)."""
    white: int
    """Mask of White's pieces (side 1)."""
    side: int
    """The side to move."""
    ply: int
    """Moves played so far."""
    key: int
    """Zobrist key of the board and side to move."""
    status: int
    """``RUNNING`` or how the game ended (``BLACK_WINS``, ``WHITE_WINS``, ``REPETITION``, …)."""
    history: tuple[int, ...]
    """Keys of the earlier positions since the last capture, oldest first."""


ORDER_CACHE_SIZE = 1 << 16
"""Positions whose ordered search moves a game remembers (every iteration asks again)."""

# Builds a LoaState without NamedTuple's Python-level __new__: four times faster, and
# play() is the search's hot path.
_new_state = tuple.__new__


class LinesOfActionGame(Game[LoaState, LoaMove]):
    """Lines of Action with ``size`` cells a side (5, 6 or 8); Black moves first."""

    name = "loa"
    sides = ("Black", "White")
    option_specs = (
        OptionSpec(name="size", default=8, help="cells along each side", choices=SIZES),
    )
    notation = "from-to cells (b1-b3), a capture with x (b3xe3); pass when you cannot move"
    endings: ClassVar[Mapping[str, str]] = {"connected": "{winner} connects all their pieces"}
    ladder_pools = (
        LadderPool("loa-8", "Lines of Action 8×8, 10 s a move", {"size": 8}, move_ms=10_000),
    )
    move_seconds = 10.0
    listing_order = 3
    perft_counts = (36, 1_244)
    """Move paths from the start at depths 1, 2…: shared with an independent implementation."""
    evaluation_scale = 72.0

    def __init__(self, *, size: int = 8, max_plies: int = DEFAULT_MAX_PLIES) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
            raise ValueError(
                f"Lines of Action is played on a 5×5, 6×6 or 8×8 board; size {size!r} is not one."
            )
        if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
            raise ValueError(f"max_plies must be a whole number of at least 1, not {max_plies!r}.")
        self.check_options(size=size, max_plies=max_plies)
        self.size = size
        """Cells along each side of the board."""
        self.max_plies = max_plies
        """Plies after which a game that has not ended is drawn."""
        self.board: LoaBoard = board_for(size)
        """The precomputed tables for this board size."""
        self.title = f"Lines of Action {size}×{size}"
        self.geometry = Geometry("square", loa_notation.rows(self.board))
        self._display_squares = loa_notation.display_squares(self.board)
        self._ordered: dict[tuple[int, int, int], list[LoaMove]] = {}

    @property
    def options(self) -> Mapping[str, object]:
        """``size`` and ``max_plies``."""
        return {"size": self.size, "max_plies": self.max_plies}

    def initial_state(self) -> LoaState:
        """Black on the bottom and top edges, White on the left and right, corners empty."""
        black, white = self.board.start()
        return self.make_state(black, white, 0, 0)

    def make_state(self, black: int, white: int, side: int, ply: int) -> LoaState:
        """A state with no history for a position, its ending worked out from the board."""
        key = self.board.key_of(black, white, side)
        return LoaState(black, white, side, ply, key, self._status(black, white, side, ply), ())

    def to_move(self, state: LoaState) -> int:
        """The side to move."""
        return state.side

    def ply(self, state: LoaState) -> int:
        """Moves played so far."""
        return state.ply

    def legal_moves(self, state: LoaState) -> list[LoaMove]:
        """Every piece move, or only the pass when there is none; empty once the game is over."""
        if state.status:
            return []
        if state.side:
            moves = self.board.moves(state.white, state.black)
        else:
            moves = self.board.moves(state.black, state.white)
        return moves or [PASS]

    def play(self, state: LoaState, move: LoaMove) -> LoaState:
        """The state after a legal ``move``, with its ending decided."""
        black, white, side, ply, key, _, history = state
        origin, target, capture = move
        board = self.board
        ply += 1
        if origin < 0:
            key ^= board.zobrist_white_to_move
            history = (*history, state.key)
            status = self._draw_status(key, history, ply)
            return _new_state(LoaState, (black, white, 1 - side, ply, key, status, history))
        own, enemy = (white, black) if side else (black, white)
        own ^= 1 << origin | 1 << target
        zobrist = board.zobrist
        key ^= zobrist[side][origin] ^ zobrist[side][target] ^ board.zobrist_white_to_move
        if capture:
            enemy ^= 1 << target
            key ^= zobrist[1 - side][target]
            history = ()
        else:
            history = (*history, state.key)
        if board.connected(own):
            status = WHITE_WINS if side else BLACK_WINS
        elif capture and board.connected(enemy):
            status = BLACK_WINS if side else WHITE_WINS
        else:
            status = self._draw_status(key, history, ply)
        if side:
            black, white = enemy, own
        else:
            black, white = own, enemy
        return _new_state(LoaState, (black, white, 1 - side, ply, key, status, history))

    def check_move(self, state: LoaState, move: LoaMove) -> None:
        """Raise :class:`IllegalMoveError` naming the rule ``move`` breaks, if any."""
        if state.status:
            raise IllegalMoveError("game_over", "The game is over: no more moves can be played.")
        if move == PASS:
            if self.legal_moves(state) != [PASS]:
                raise IllegalMoveError(
                    "cannot_pass", "You may pass only when none of your pieces can move."
                )
            return
        loa_notation.check_piece_move(self.board, state.black, state.white, state.side, move)

    def outcome(self, state: LoaState) -> Outcome | None:
        """``None`` while running; else the winner with their pieces, or the kind of draw."""
        status = state.status
        if not status:
            return None
        if status == REPETITION:
            return Outcome(None, "repetition")
        if status == MOVE_CAP:
            return Outcome(None, "move_cap")
        winner = 0 if status == BLACK_WINS else 1
        pieces = state.white if winner else state.black
        names = self.board.names
        return Outcome(winner, "connected", tuple(sorted(names[sq] for sq in bits(pieces))))

    def parse_move(self, state: LoaState, text: str) -> LoaMove:
        """Read ``b1-b3``, ``b3xe3``, ``b1b3`` or ``pass`` and check it is legal here."""
        move = loa_notation.parse(
            self.board, state.black, state.white, state.side, text, game_over=bool(state.status)
        )
        self.check_move(state, move)
        return move

    def format_move(self, move: LoaMove) -> str:
        """``b1-b3`` for a move, ``b3xe3`` for a capture, ``pass`` for a pass."""
        return loa_notation.format_move(self.board, move)

    def move_cells(self, move: LoaMove) -> tuple[str, ...]:
        """``(from, to)``, or nothing for a pass."""
        if move == PASS:
            return ()
        return self.board.names[move.origin], self.board.names[move.target]

    def encode(self, state: LoaState) -> str:
        """Ranks from the top joined by ``/`` (``b``, ``w``, ``.``), side to move, ply."""
        return loa_notation.encode(self.board, state.black, state.white, state.side, state.ply)

    def decode(self, text: str) -> LoaState:
        """The state an :meth:`encode` text describes; ``ValueError`` for a bad text."""
        black, white, side, ply = loa_notation.decode(self.board, text)
        return self.make_state(black, white, side, ply)

    def render(self, state: LoaState) -> str:
        """The board with ranks and files, Black as ``B`` and White as ``W``."""
        return loa_notation.render(self.board, state.black, state.white, state.side, self.sides)

    def occupancy(self, state: LoaState) -> tuple[int | None, ...]:
        """0 for Black, 1 for White, ``None`` for empty, in :attr:`Geometry.cells` order."""
        black, white = state.black, state.white
        return tuple(
            0 if black >> sq & 1 else 1 if white >> sq & 1 else None for sq in self._display_squares
        )

    def key(self, state: LoaState) -> int:
        """The Zobrist key kept in the state."""
        return state.key

    def evaluate(self, state: LoaState) -> int:
        """Heuristic worth for the side to move: see :mod:`gamut_engine.games.loa_eval`."""
        return loa_eval.evaluate(self.board, state.black, state.white, state.side)

    def search_moves(self, state: LoaState) -> list[LoaMove]:
        """Legal moves with captures and moves that gather the pieces first.

        Remembered by board and side to move, since every iteration of a search asks
        again (the history only decides draws, and a finished game has no moves).
        """
        if state.status:
            return []
        key = (state.black, state.white, state.side)
        ordered = self._ordered.get(key)
        if ordered is None:
            if len(self._ordered) >= ORDER_CACHE_SIZE:
                self._ordered.clear()
            ordered = self._ordered[key] = self._order(state)
        return list(ordered)

    def _order(self, state: LoaState) -> list[LoaMove]:
        """The legal moves of a running game, best first."""
        moves = self.legal_moves(state)
        if len(moves) < 2:
            return moves
        own, enemy = (state.white, state.black) if state.side else (state.black, state.white)
        return loa_eval.order_moves(self.board, own, enemy, moves)

    def _status(self, black: int, white: int, side: int, ply: int) -> int:
        """How a position reached by the other side's move stands, without history."""
        mover_wins = BLACK_WINS if side else WHITE_WINS
        black_connected = self.board.connected(black)
        white_connected = self.board.connected(white)
        if black_connected and white_connected:
            return mover_wins
        if black_connected:
            return BLACK_WINS
        if white_connected:
            return WHITE_WINS
        return MOVE_CAP if ply >= self.max_plies else RUNNING

    def _draw_status(self, key: int, history: tuple[int, ...], ply: int) -> int:
        """``REPETITION``, ``MOVE_CAP`` or ``RUNNING`` for a position nobody has won."""
        if history.count(key) >= REPETITION_LIMIT - 1:
            return REPETITION
        return MOVE_CAP if ply >= self.max_plies else RUNNING
