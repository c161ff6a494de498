"""An independent check of Connect Five forced wins, by brute force over every legal move.

It uses nothing of the threat solver or the evaluation: only the rules' ``play``,
``outcome`` and ``legal_moves``, and the rule they imply that a side with two cells
that complete five cannot be stopped, and with one must have it blocked. Every
defender reply is tried; the engine's move order is used only to try the attacker's
likelier moves first, which changes the speed, never the answer.
"""

from __future__ import annotations

from gamut_engine.games.connect5 import ConnectFiveGame
from gamut_engine.games.connect5_board import Connect5State


class BudgetExceededError(Exception):
    """The check played more moves than it was allowed."""


class BruteForce:
    """Proves wins within a number of plies, playing at most ``budget`` moves."""

    def __init__(self, game: ConnectFiveGame, budget: int = 2_000_000) -> None:
        self.game = game
        self.budget = budget
        self.played = 0

    def move_wins(self, state: Connect5State, move: int, plies: int) -> bool:
        """Whether ``move`` wins for the side to move within ``plies`` plies, itself included."""
        attacker = state.turn
        child = self._play(state, move)
        outcome = self.game.outcome(child)
        if outcome is not None:
            return outcome.winner == attacker
        return self._defender_loses(child, attacker, plies - 1)

    def wins_within(self, state: Connect5State, plies: int) -> bool:
        """Whether the side to move wins within ``plies`` plies whatever the other does."""
        return self._attacker_wins(state, state.turn, plies)

    def _play(self, state: Connect5State, move: int) -> Connect5State:
        self.played += 1
        if self.played > self.budget:
            raise BudgetExceededError
        return self.game.play(state, move)

    def _wins_now(self, state: Connect5State, side: int) -> list[int]:
        """The cells where ``side`` would complete five if it were to move."""
        turned = state._replace(turn=side)
        return [move for move in self.game.legal_moves(turned) if self._play(turned, move).won]

    def _attacker_wins(self, state: Connect5State, attacker: int, plies: int) -> bool:
        """Whether the attacker, to move, wins within ``plies`` plies."""
        if plies < 1:
            return False
        if self._wins_now(state, attacker):
            return True
        if plies < 3:
            return False
        game = self.game
        first = game.search_moves(state)
        rest = [move for move in game.legal_moves(state) if move not in set(first)]
        for move in first + rest:
            child = self._play(state, move)
            if game.outcome(child) is None and self._defender_loses(child, attacker, plies - 1):
                return True
        return False

    def _defender_loses(self, state: Connect5State, attacker: int, plies: int) -> bool:
        """Whether the defender, to move, loses within ``plies`` plies whatever it plays."""
        if plies < 2 or self._wins_now(state, 1 - attacker):
            return False
        threats = self._wins_now(state, attacker)
        if len(threats) >= 2:
            return True
        if not threats and plies < 4:
            # A reply cannot give the attacker a five to make: it needs a double threat
            # after the reply, and a move after the block, four plies in all.
            return False
        replies = threats or self.game.legal_moves(state)
        for reply in replies:
            child = self._play(state, reply)
            if self.game.outcome(child) is not None:
                return False
            if not self._attacker_wins(child, attacker, plies - 1):
                return False
        return True
