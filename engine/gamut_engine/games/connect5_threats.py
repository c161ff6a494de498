"""Victory by continuous fours (VCF): a forced win in which every attacking stone makes a four.

A four leaves the defender exactly one reply, the cell that completes it, unless the
defender can win first. So a win found by playing fours only is a forced win against
any defence, and the tree to search is narrow: the attacker's four-making cells, each
answered by a single block. The search also handles the defender's own threats on the
way: a block that makes a four for the defender must be answered before the attack goes
on, and the attack continues only if that answer makes a four too.
"""

from __future__ import annotations

from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.games.connect5_board import Connect5Board, Connect5State
from gamut_engine.games.connect5_eval import line_threats, threats

Move = int
"""A cell index, as :class:`~gamut_engine.games.connect5.ConnectFiveGame` uses."""

DEFAULT_DEPTH = 8
"""Attacking stones a search tries by default before it gives up."""


def find_forced_win(
    game: ConnectFiveGame, state: Connect5State, max_depth: int = DEFAULT_DEPTH
) -> Move | None:
    """A first move that wins by continuous fours in ``max_depth`` stones or fewer, or ``None``.

    ``max_depth`` counts the attacker's stones including the one that completes five,
    so depth 1 finds only an immediate win. ``None`` means no such win exists within
    that depth (there may still be a slower one or one that needs open threes). A win
    that would come after the game's ply cap is not one.
    """
    plies_left = game.max_plies - state.ply
    max_depth = min(max_depth, (plies_left + 1) // 2)
    if game.outcome(state) is not None or max_depth < 1:
        return None
    own, enemy = (state.o, state.x) if state.turn else (state.x, state.o)
    return _Search(game.board).attack(own, enemy, max_depth)


class _Search:
    """One VCF search, remembering the positions already proven not to win."""

    def __init__(self, board: Connect5Board) -> None:
        self.board = board
        self.failed: dict[tuple[int, int], int] = {}
        """Depth at which each (attacker, defender) position was searched without success."""

    def attack(self, own: int, enemy: int, depth: int) -> Move | None:
        """A winning four (or five) for ``own`` to play against ``enemy``, within ``depth``."""
        board = self.board
        mine_lines, their_lines = line_threats(board, own, enemy)
        mine = threats(mine_lines)
        if mine.wins:
            return board.cells_of(mine.wins)[0]
        if depth < 2 or self.failed.get((own, enemy), 0) >= depth:
            return None
        candidates = mine.fours
        their_wins = threats(their_lines).wins
        if their_wins:
            if their_wins & (their_wins - 1):
                return None
            candidates &= their_wins
        for cell in board.cells_of(candidates):
            if self._wins_after(own | board.bits[cell], enemy, depth):
                return cell
        self.failed[(own, enemy)] = depth
        return None

    def _wins_after(self, own: int, enemy: int, depth: int) -> bool:
        """Whether the four just made by ``own`` wins against the forced block."""
        board = self.board
        wins = threats(line_threats(board, own, enemy)[0]).wins
        if not wins:
            return False
        if wins & (wins - 1):
            return True
        blocked = enemy | wins
        if board.has_five(blocked):
            return False
        return self.attack(own, blocked, depth - 1) is not None
