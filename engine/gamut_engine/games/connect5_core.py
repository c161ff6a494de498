"""Connect Five's compiled search, where it is built, behind the game's own interface.

The C extension ``_connect5_core`` (sources in ``gamut_engine/native/connect5``) is
built by the install when a C compiler is present. It ports the pattern tables, the
evaluation, the move order, the threat-space and proof-number searches and the
alpha-beta node search, which the Python modules keep as the reference: the
differential tests hold the two to the same answers. :class:`CompiledConnectFive` turns
a game's positions into the core's boards and its answers back into moves. Where the
extension is missing (or switched off), :func:`missing` says so in a sentence and the
game searches in Python.
"""

from __future__ import annotations

import math
import os
import struct

from gamut_engine.compiled import RootReport
from gamut_engine.games.connect5_board import Connect5Board, Connect5State
from gamut_engine.games.connect5_eval import TEMPO
from gamut_engine.games.connect5_proof import NODE_LIMIT
from gamut_engine.games.connect5_scan import WEIGHTS

GUARD_STONES = 9
"""The longest of the opponent's VCTs, in stones, that a timed search's root guards against."""

SWITCH = "GAMUT_NO_COMPILED"
"""Set to any value, this environment variable leaves the compiled search unused."""

try:
    from gamut_engine.games._connect5_core import Core
except ImportError:  # built without a C compiler
    Core = None  # type: ignore[assignment,misc]
    WHY = "is not built (there was no C compiler when Gamut was installed)"
else:
    WHY = f"is switched off ({SWITCH} is set)"
if os.environ.get(SWITCH):
    Core = None  # type: ignore[assignment,misc]


def built() -> bool:
    """Whether the compiled search is there to use."""
    return Core is not None


def missing() -> str | None:
    """The sentence a server prints at start-up when the compiled search is not used."""
    if built():
        return None
    return f"Connect Five's compiled search {WHY}, so its AI runs in pure Python, much slower."


class CompiledConnectFive:
    """The compiled search of one game, with its tables kept from move to move."""

    def __init__(self, board: Connect5Board, max_plies: int, node_limit: int = NODE_LIMIT) -> None:
        """A core for ``board``'s size, with its keys and the evaluation's weights.

        ``node_limit`` bounds the proof search's table, as :class:`ProofSearch`'s.
        """
        assert Core is not None, missing()
        keys = (*board.zobrist[0], *board.zobrist[1], board.side_key)
        zobrist = struct.pack(f"<{len(keys)}Q", *keys)
        self.board = board
        self.core = Core(board.size, zobrist, (*WEIGHTS, *TEMPO), max_plies, node_limit)

    def cells(self, state: Connect5State) -> bytes:
        """The board as the core reads it: a byte a cell, 0 empty, 1 for X, 2 for O."""
        board = bytearray(self.board.cell_count)
        for cell in self.board.cells_of(state.x):
            board[cell] = 1
        for cell in self.board.cells_of(state.o):
            board[cell] = 2
        return bytes(board)

    def search_moves(self, state: Connect5State) -> list[int]:
        """``ConnectFiveGame.search_moves`` of a running position, computed by the core."""
        return self.core.search_moves(self.cells(state), state.turn)

    def forced_win(self, state: Connect5State, seconds: float) -> tuple[int, int] | None:
        """``ProofSearch.winning_move``: a proven win for the side to move and its plies."""
        return self.core.winning_move(self.cells(state), state.turn, seconds, True)

    def move_wins(self, state: Connect5State, move: int, stones: int, seconds: float) -> bool:
        """``ThreatSolver.move_wins``: whether ``move`` starts a VCT of ``stones`` stones at
        most; ``TimeoutError`` if ``seconds`` pass first."""
        wins = self.core.move_wins(self.cells(state), state.turn, move, stones, seconds)
        if wins is None:
            raise TimeoutError(f"no answer within {seconds} s")
        return wins

    def defences(self, state: Connect5State, moves: list[int], seconds: float) -> list[int]:
        """``ThreatSolver.defences``: the moves that leave the opponent no VCT of 7 stones."""
        return self.core.defences(self.cells(state), state.turn, moves, seconds)

    def guards(self, state: Connect5State, moves: list[int], seconds: float) -> list[int]:
        """The core's own defence, deeper than :meth:`defences`.

        When the opponent has a VCT of up to :data:`GUARD_STONES` stones, the ``moves``
        that leave it none, each checked by proof-number search (our fours and the cells
        of the threat's proof first), up to five of them; if none is found in time, those
        left unchecked. All of ``moves`` when there is no such VCT or no move stops it.
        """
        return self.core.guards(self.cells(state), state.turn, moves, GUARD_STONES, seconds)

    def search_root(
        self,
        state: Connect5State,
        depth: int,
        moves: list[int],
        *,
        exact: bool,
        seconds: float,
        nodes: int,
        new_run: bool,
    ) -> RootReport[int]:
        """One depth of alpha-beta below ``state`` (see :class:`CompiledSearch`)."""
        complete, searched, move, score, pv, counts = self.core.search(
            self.cells(state),
            state.turn,
            depth,
            moves,
            exact,
            seconds if seconds < math.inf else math.inf,
            nodes,
            new_run,
        )
        return RootReport(complete, searched, move, score, tuple(pv), counts)

    def clear(self) -> None:
        """Forget the positions the alpha-beta searched."""
        self.core.clear()
