"""Connect Five: freestyle five in a row on an n × n board (5 ≤ n ≤ 19).

Players take turns placing a stone of their own on any empty cell; X moves first. The
first to have five or more of their stones in an unbroken row (across, down or along a
diagonal; six or more count too) wins, and a full board without one is a draw.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import ClassVar

from gamut_engine.core import (
    DEFAULT_MAX_PLIES,
    Game,
    Geometry,
    IllegalMoveError,
    LadderPool,
    OptionSpec,
    Outcome,
    Timer,
)
from gamut_engine.games import connect5_eval
from gamut_engine.games.connect5_board import MAX_SIZE, MIN_SIZE, Connect5State, board_for
from gamut_engine.games.connect5_core import CompiledConnectFive, built
from gamut_engine.games.connect5_lines import position_of, wins_of
from gamut_engine.games.connect5_notation import (
    EMPTY,
    SIDE_SYMBOLS,
    cell_name,
    off_board_error,
    parse_cell,
    parse_rows,
    seed_move,
)
from gamut_engine.games.connect5_patterns import pattern_tables
from gamut_engine.games.connect5_proof import ProofSearch
from gamut_engine.games.connect5_threats import ThreatSolver, star_masks

Move = int
"""A move is the index of the cell it fills, row by row from the top-left cell."""

_OCCUPIED = "That cell already holds a stone; place yours on an empty cell."
_GAME_OVER = "The game is over; no more stones can be placed."

_ROW_SYMBOLS = str.maketrans("0123", f"{EMPTY}{SIDE_SYMBOLS[0]}{SIDE_SYMBOLS[1]}/")
"""From :meth:`Connect5Board.cell_codes` to the rows of :meth:`ConnectFiveGame.encode`."""


class ConnectFiveGame(Game[Connect5State, Move]):
    """Connect Five on a ``size`` × ``size`` board; X (side 0) moves first."""

    name = "connect5"
    sides = SIDE_SYMBOLS
    option_specs = (
        OptionSpec(
            name="size",
            default=15,
            help="cells along each side of the board",
            minimum=MIN_SIZE,
            maximum=MAX_SIZE,
        ),
    )
    notation = "name a cell: a column letter, then the row counted from 1 at the bottom (h8)"
    endings: ClassVar[Mapping[str, str]] = {
        "five": "{winner} makes five in a row",
        "board_full": "the board is full: a draw",
    }
    ladder_pools = (LadderPool("connect5-15", "Connect Five 15×15, 5 s a move", {"size": 15}),)
    listing_order = 2
    perft_counts = (225, 50_400)
    """Move paths from the start at depths 1, 2: every empty cell, then every other one."""
    evaluation_scale = 4405.0

    def __init__(self, *, size: int = 15, max_plies: int = DEFAULT_MAX_PLIES) -> None:
        if isinstance(size, bool) or not isinstance(size, int):
            raise ValueError(f"the board size must be a whole number, not {size!r}")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(
                f"the board size must be from {MIN_SIZE} to {MAX_SIZE} cells a side, not {size}"
            )
        if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
            raise ValueError(f"max_plies must be a whole number of at least 1, not {max_plies!r}")
        self.check_options(size=size, max_plies=max_plies)
        self.size = size
        """Cells along each side of the board."""
        self.max_plies = max_plies
        """Plies after which a game without five in a row is drawn."""
        self.board = board_for(size)
        """The precomputed tables of this board size."""
        self.stars = star_masks(self.board)
        """For every cell, the cells within four of it along its four lines."""
        self.title = f"Connect Five {size}×{size}"
        self.cell_names: tuple[str, ...] = tuple(
            cell_name(size, cell) for cell in range(size * size)
        )
        """The canonical name of every cell, by cell index."""
        self.geometry = Geometry(
            kind="square",
            rows=tuple(self.cell_names[r * size : (r + 1) * size] for r in range(size)),
        )
        self.patterns = pattern_tables(self.board)
        """The line patterns the search's positions carry, shared by the games of this size."""
        self._initial = Connect5State(0, 0, 0, 0, 0, False)
        self.solver = ThreatSolver(self.board)
        """The threat-space search, keeping its table from move to move."""
        self.prover = ProofSearch(self.solver)
        """The proof-number search over the same threats, which looks for the wins."""
        self._compiled: CompiledConnectFive | None = None

    @property
    def options(self) -> Mapping[str, object]:
        """The board size and the ply cap."""
        return {"size": self.size, "max_plies": self.max_plies}

    def move_budget(self) -> float:
        """A fifth of a second a cell: 45 s a move on the 15×15 board."""
        return self.size * self.size / 5

    def initial_state(self) -> Connect5State:
        """The empty board, X to move."""
        return self._initial

    def to_move(self, state: Connect5State) -> int:
        """The side whose turn it is."""
        return state.turn

    def ply(self, state: Connect5State) -> int:
        """Stones on the board: one per move played."""
        return state.ply

    def legal_moves(self, state: Connect5State) -> list[Move]:
        """Every empty cell in cell order, or nothing once the game is over."""
        if self.outcome(state) is not None:
            return []
        return self.board.cells_of(self.board.mask & ~(state.x | state.o))

    def play(self, state: Connect5State, move: Move) -> Connect5State:
        """Place the side to move's stone on ``move``, trusting that the cell is empty.

        A position of the rules gives one of the rules; one of the search (see
        :meth:`search_state`) gives one of the search, its patterns updated.
        """
        if state.masks:
            return self._play_patterned(state, move)
        board = self.board
        bit = board.bits[move]
        key = state.key ^ board.zobrist[state.turn][move] ^ board.side_key
        stones = (state.o if state.turn else state.x) | bit
        # A new five runs through the new stone, so within four cells of it along a line.
        around = stones & self.stars[move]
        won = around.bit_count() >= 5 and board.has_five(around)
        if state.turn:
            return Connect5State(state.x, stones, 0, state.ply + 1, key, won)
        return Connect5State(stones, state.o, 1, state.ply + 1, key, won)

    def _play_patterned(self, state: Connect5State, move: Move) -> Connect5State:
        """:meth:`play` on a position of the search: the four lines' patterns updated too."""
        board = self.board
        bit = board.bits[move]
        turn = state.turn
        key = state.key ^ board.zobrist[turn][move] ^ board.side_key
        won = bool(bit & wins_of(position_of(state), turn))
        masks, counts = self.patterns.play(state.masks, state.counts, state.x, state.o, move, turn)
        if turn:
            return Connect5State(state.x, state.o | bit, 0, state.ply + 1, key, won, masks, counts)
        return Connect5State(state.x | bit, state.o, 1, state.ply + 1, key, won, masks, counts)

    def search_state(self, state: Connect5State) -> Connect5State:
        """``state`` carrying both sides' threat patterns, which :meth:`play` then keeps up."""
        if state.masks:
            return state
        masks, counts = self.patterns.from_stones(state.x, state.o)
        return state._replace(masks=masks, counts=counts)

    def check_move(self, state: Connect5State, move: Move) -> None:
        """Raise ``game_over``, ``off_board`` or ``occupied`` if ``move`` cannot be played."""
        if self.outcome(state) is not None:
            raise IllegalMoveError("game_over", _GAME_OVER)
        if not 0 <= move < self.board.cell_count:
            raise off_board_error(self.size)
        if (state.x | state.o) & self.board.bits[move]:
            raise IllegalMoveError("occupied", _OCCUPIED)

    def outcome(self, state: Connect5State) -> Outcome | None:
        """A win for five in a row, else a draw on a full board or at the ply cap."""
        if state.won:
            winner = 1 - state.turn
            cells = self.board.five_line(state.o if winner else state.x)
            return Outcome(winner, "five", tuple(self.cell_names[c] for c in cells))
        if state.ply >= self.board.cell_count:
            return Outcome(None, "board_full")
        if state.ply >= self.max_plies:
            return Outcome(None, "move_cap")
        return None

    def parse_move(self, state: Connect5State, text: str) -> Move:
        """Read ``h8`` (a1 bottom left) or the original ``(7 7)`` (0-based, row 0 at the top)."""
        move = parse_cell(self.size, text)
        self.check_move(state, move)
        return move

    def format_move(self, move: Move) -> str:
        """The canonical name of the cell, such as ``h8``."""
        return self.cell_names[move]

    def format_seed_move(self, move: Move) -> str:
        """The move as the original program prints it: ``(col row)``, 0-based, row 0 on top."""
        return seed_move(self.size, move)

    def move_cells(self, move: Move) -> tuple[str, ...]:
        """The one cell a move fills."""
        return (self.cell_names[move],)

    def encode(self, state: Connect5State) -> str:
        """Rows from the top joined by ``/`` then the side to move: ``-----/XXXX-/… X``."""
        rows = self.board.cell_codes(state.x, state.o).translate(_ROW_SYMBOLS)
        return f"{rows} {SIDE_SYMBOLS[state.turn]}"

    def decode(self, text: str) -> Connect5State:
        """The position an :meth:`encode` text describes; ``ValueError`` if it describes none."""
        board_text, _, side = text.strip().rpartition(" ")
        if side.upper() not in SIDE_SYMBOLS or not board_text:
            raise ValueError(f"{text!r} does not end with the side to move, X or O")
        turn = SIDE_SYMBOLS.index(side.upper())
        return self.state_from_rows(parse_rows(board_text.replace("/", "\n")), turn)

    def board_state(self, text: str) -> Connect5State:
        """The position of a seed board text (Scheme lists or plain rows of ``X``, ``O``, ``-``).

        The side with fewer stones is to move, X when both have as many. Raises
        ``ValueError`` for a board of another size or one that no game can reach.
        """
        return self.state_from_rows(parse_rows(text), None)

    def state_from_rows(self, rows: list[str], turn: int | None) -> Connect5State:
        """The position of ``rows`` (top first, ``X``/``O``/``-``) with ``turn`` to move.

        ``turn=None`` gives the move to the side with fewer stones, X when equal.
        """
        n = self.size
        if len(rows) != n or any(len(row) != n for row in rows):
            shape = f"{len(rows)} rows of {sorted({len(row) for row in rows})} cells"
            raise ValueError(f"a {n}×{n} board needs {n} rows of {n} cells, not {shape}")
        text = "".join(rows)
        x = sum(bit for bit, symbol in zip(self.board.bits, text, strict=True) if symbol == "X")
        o = sum(bit for bit, symbol in zip(self.board.bits, text, strict=True) if symbol == "O")
        return self.state_from_stones(x, o, turn)

    def state_from_stones(self, x: int, o: int, turn: int | None) -> Connect5State:
        """The position with X on the bits ``x`` and O on ``o``, checked for reachability."""
        board = self.board
        counts = (x.bit_count(), o.bit_count())
        if turn is None:
            turn = 1 if counts[1] < counts[0] else 0
        if counts[turn] > counts[1 - turn] or counts[1 - turn] > counts[turn] + 1:
            raise ValueError(
                f"{counts[0]} X and {counts[1]} O stones with {SIDE_SYMBOLS[turn]} to move: "
                "the side to move must have as many stones as the other or one fewer"
            )
        if board.has_five(o if turn else x):
            raise ValueError(f"{SIDE_SYMBOLS[turn]} is to move but already has five in a row")
        last_mover = x if turn else o
        key = board.key_of(x, o, turn)
        return Connect5State(x, o, turn, sum(counts), key, board.has_five(last_mover))

    def render(self, state: Connect5State) -> str:
        """The board with row numbers on the left and column letters below, X and O stones."""
        n = self.size
        symbols = "".join(self._symbols(state)).replace(EMPTY, ".")
        letters = "   " + " ".join(chr(ord("a") + c) for c in range(n))
        lines = [f"{n - r:>2} " + " ".join(symbols[r * n : (r + 1) * n]) for r in range(n)]
        return "\n".join([*lines, letters])

    def occupancy(self, state: Connect5State) -> tuple[int | None, ...]:
        """The side owning each cell, or ``None``, in cell order."""
        owners: list[int | None] = [None] * self.board.cell_count
        for side, stones in enumerate((state.x, state.o)):
            for cell in self.board.cells_of(stones):
                owners[cell] = side
        return tuple(owners)

    def key(self, state: Connect5State) -> int:
        """The Zobrist key kept in the state."""
        return state.key

    def evaluate(self, state: Connect5State) -> int:
        """Threat-pattern score for the side to move (see :mod:`connect5_eval`)."""
        return connect5_eval.evaluate(self.search_state(state))

    def search_moves(self, state: Connect5State) -> list[Move]:
        """Wins first, then forced blocks, then threats; only cells near the stones.

        Against a threat of an open or double four, only the moves that take it away and
        the fours that come first: every other move loses to it.
        """
        if self.outcome(state) is not None:
            return []
        if not state.masks:
            compiled = self.compiled_search()
            if compiled is not None:
                return compiled.search_moves(state)  # the same list, without the patterns
            state = self.search_state(state)
        moves, threatened = connect5_eval.ordered_moves(self.board, state)
        if threatened and len(moves) > 1:
            answers = self.solver.answers(state)
            if answers is not None:
                bits = self.board.bits
                return [move for move in moves if bits[move] & answers] or moves
        return moves

    def compiled_search(self) -> CompiledConnectFive | None:
        """The compiled search where it is built, made on first use (its tables are large)."""
        if self._compiled is None and built():
            self._compiled = CompiledConnectFive(self.board, self.max_plies)
        return self._compiled

    def forced_win(self, state: Connect5State, timer: Timer) -> tuple[Move, int] | None:
        """A win by continuous fours, or by threes and fours, if one is found in time."""
        if self.outcome(state) is not None or not state.ply:
            return None
        compiled = self._compiled_on(timer)
        if compiled is not None:
            return compiled.forced_win(state, timer[1] - timer[0]())
        return self.prover.winning_move(self.search_state(state), timer)

    def defences(self, state: Connect5State, moves: list[Move], timer: Timer) -> list[Move]:
        """The moves that leave the opponent no VCF or VCT, when it has one now."""
        if self.outcome(state) is not None or state.ply < 4:
            return moves
        compiled = self._compiled_on(timer)
        if compiled is not None:
            return compiled.defences(state, moves, timer[1] - timer[0]())
        return self.solver.defences(self.search_state(state), moves, timer)

    def _compiled_on(self, timer: Timer) -> CompiledConnectFive | None:
        """The compiled search if ``timer`` runs on the real clock, which the core reads."""
        return self.compiled_search() if timer[0] is time.perf_counter else None

    def _symbols(self, state: Connect5State) -> list[str]:
        """The symbol of every cell in cell order."""
        return [EMPTY if owner is None else SIDE_SYMBOLS[owner] for owner in self.occupancy(state)]


def load_board(
    text: str, *, max_plies: int = DEFAULT_MAX_PLIES
) -> tuple[ConnectFiveGame, Connect5State]:
    """The game and position of a seed board text, the board size read from the text.

    Accepts the Scheme list of lists ``(list (list '- 'X …) …)`` or plain rows of ``X``,
    ``O`` and ``-``; the side with fewer stones is to move, X when both have as many.
    Raises ``ValueError`` with a sentence for a text that is not a square board of 5 to 19
    cells a side or a position no game can reach.
    """
    rows = parse_rows(text)
    widths = sorted({len(row) for row in rows})
    if widths != [len(rows)]:
        raise ValueError(f"a board must be square, not {len(rows)} rows of {widths} cells")
    game = ConnectFiveGame(size=len(rows), max_plies=max_plies)
    return game, game.state_from_rows(rows, None)
