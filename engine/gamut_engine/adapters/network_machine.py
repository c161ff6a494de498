"""The CS 61B (2014) Network project's ``MachinePlayer``: a Network player that keeps its own board.

The original colours are 0 for Black and 1 for White, and White moves first. In Gamut's
Network, side 0 moves first (White in the cs61b rules, Player 1 in the 2015 rules), so
colour ``c`` plays side ``1 - c``. Moves are Gamut's move values (``int``, as
:class:`~gamut_engine.games.network.NetworkGame` makes them) or text in any notation the
game reads (``23``, ``[add to 23]``, ``23-45``, ``A4``…).

The board only knows whose turn it is from the moves played, so :meth:`force_move` and
:meth:`opponent_move` must come in turn: a move by the side not to move is refused like
an illegal one (``False``, nothing recorded), as is any move once the game is over.
"""

from __future__ import annotations

from typing import Any

from gamut_engine.core import IllegalMoveError, InvalidMoveError, Outcome
from gamut_engine.games.network import NetworkGame, NetworkState
from gamut_engine.players import AIPlayer
from gamut_engine.search.result import Result

BLACK = 0
"""The original colour of Black, which moves second."""
WHITE = 1
"""The original colour of White, which moves first."""

MOVE_TIME = 4.5
"""Seconds a search may take without a fixed depth: inside the original 5 s with a margin."""


class MachinePlayer:
    """A Network machine player with the original interface and Gamut's search behind it.

    With ``search_depth`` every move searches exactly that many plies (the original second
    constructor); without it, each move deepens for at most ``move_time`` seconds.
    """

    def __init__(
        self,
        color: int,
        search_depth: int | None = None,
        *,
        rules: str = "cs61b",
        move_time: float = MOVE_TIME,
    ) -> None:
        """A player of ``color`` (0 Black, 1 White) on an empty board; ``ValueError`` if bad."""
        if color not in (BLACK, WHITE) or isinstance(color, bool):
            raise ValueError(f"the colour is 0 (black) or 1 (white), not {color!r}")
        if search_depth is not None and search_depth < 1:
            raise ValueError(f"the search depth must be at least 1, not {search_depth}")
        self.color = color
        """The original colour: 0 Black, 1 White."""
        self.side = 1 - color
        """The side this player plays in Gamut's game (0 moves first)."""
        self.search_depth = search_depth
        """The exact search depth, or ``None`` to search by time."""
        self.game = NetworkGame(rules=rules)
        """The rules this player follows."""
        self.state: NetworkState = self.game.initial_state()
        """The board as this player knows it."""
        if search_depth is None:
            self._ai = AIPlayer(time=move_time)
        else:
            self._ai = AIPlayer(depth=search_depth)

    def choose_move(self) -> int:
        """A move for this player, recorded on its board; ``ValueError`` if it is not to move."""
        if self.game.outcome(self.state) is not None:
            raise ValueError("the game is over: there is no move to choose")
        if self.game.to_move(self.state) != self.side:
            raise ValueError("it is the opponent's turn")
        move: int = self._ai.choose_move(self.game, self.state)
        self.state = self.game.play(self.state, move)
        return move

    def opponent_move(self, move: int | str) -> bool:
        """Record the opponent's ``move`` if it is legal now; ``False`` (board unchanged) if not."""
        return self._record(move, 1 - self.side)

    def force_move(self, move: int | str) -> bool:
        """Record ``move`` by this player if it is legal now; ``False`` (board unchanged) if not."""
        return self._record(move, self.side)

    @property
    def last_result(self) -> Result[Any] | None:
        """The last search: move, score, principal variation and statistics."""
        return self._ai.last_result

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended on this player's board, or ``None`` while it runs."""
        return self.game.outcome(self.state)

    def format_move(self, move: int) -> str:
        """``move`` in the rule set's notation (``23``, ``23-45``, ``A4``…)."""
        return self.game.format_move(move)

    def _record(self, move: int | str, side: int) -> bool:
        """Play ``move`` for ``side`` if it is that side's turn and the move is legal."""
        if self.game.to_move(self.state) != side:
            return False
        found = self._legal(move)
        if found is None:
            return False
        self.state = self.game.play(self.state, found)
        return True

    def _legal(self, move: int | str) -> int | None:
        """The legal move ``move`` stands for in the current position, or ``None``."""
        if isinstance(move, str):
            try:
                parsed: int = self.game.parse_move(self.state, move)
            except (InvalidMoveError, IllegalMoveError):
                return None
            return parsed
        if isinstance(move, bool) or not isinstance(move, int):
            return None
        return move if move in self.game.legal_moves(self.state) else None
