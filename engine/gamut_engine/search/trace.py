"""A bounded, human-readable trace of a search: the nodes it visits and the values passed up.

Every line is indented by the node's ply and names the node by its move path from the
root plus its position key (or the position's text). Values and windows are shown from
the root side's point of view, so a reader sees the textbook MAX/MIN tree. After
``max_lines`` lines the trace only counts, and closing it says how many lines were left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TextIO

from gamut_engine.core import Game
from gamut_engine.search.scores import INFINITY, describe_score

DEFAULT_TRACE_LINES = 2_000
"""Lines a trace writes before it only counts the rest."""


class SearchTrace:
    """Writes the trace of one search to a text stream the caller owns."""

    def __init__(
        self,
        game: Game[Any, Any],
        stream: TextIO,
        *,
        max_lines: int = DEFAULT_TRACE_LINES,
        positions: bool = False,
    ) -> None:
        """Trace into ``stream``; ``positions`` names nodes by their text, not their key."""
        self.game = game
        self.stream = stream
        self.max_lines = max_lines
        self.positions = positions
        self.written = 0
        """Lines written so far."""
        self.omitted = 0
        """Lines left out once the limit was reached."""

    def _room(self) -> bool:
        """Whether another line may be written; counts it as omitted if not."""
        if self.written < self.max_lines:
            return True
        self.omitted += 1
        return False

    def _line(self, ply: int, text: str) -> None:
        self.stream.write(f"{'  ' * ply}{text}\n")
        self.written += 1

    def _path(self, path: Sequence[Any]) -> str:
        return " ".join(self.game.format_move(move) for move in path) or "(root)"

    def _node(self, state: Any) -> str:
        if self.positions:
            return self.game.encode(state)
        return f"{self.game.key(state):016x}"

    @staticmethod
    def _value(value: int, ply: int) -> str:
        """A node's negamax value as the root side sees it."""
        return describe_score(-value if ply & 1 else value)

    @staticmethod
    def _bound(value: int) -> str:
        if value >= INFINITY:
            return "+inf"
        if value <= -INFINITY:
            return "-inf"
        return describe_score(value)

    def iteration(self, depth: int, state: Any, moves: int) -> None:
        """A new iteration of the deepening begins at the root."""
        if self._room():
            self._line(0, f"depth {depth}: {moves} moves from [{self._node(state)}]")

    def enter(self, ply: int, path: Sequence[Any], state: Any, alpha: int, beta: int) -> None:
        """An inner node is about to be expanded with window (alpha, beta) in its own view."""
        if self._room():
            low, high = (-beta, -alpha) if ply & 1 else (alpha, beta)
            kind = "min" if ply & 1 else "max"
            window = f"[{self._bound(low)}, {self._bound(high)}]"
            self._line(ply, f"{self._path(path)}  {kind} [{self._node(state)}] window {window}")

    def leaf(self, ply: int, path: Sequence[Any], value: int, how: str) -> None:
        """A node valued without expanding it: ``eval``, ``end`` of the game or ``table``."""
        if self._room():
            self._line(ply, f"{self._path(path)}  = {self._value(value, ply)} ({how})")

    def leave(self, ply: int, path: Sequence[Any], value: int, cutoff: bool) -> None:
        """An inner node passes its value up (``cutoff`` if a move pruned its siblings)."""
        if self._room():
            pruned = "  cutoff" if cutoff else ""
            self._line(ply, f"{self._path(path)}  -> {self._value(value, ply)}{pruned}")

    def best(self, depth: int, move: Any, score: int) -> None:
        """An iteration finished with ``move`` scoring ``score``."""
        if self._room():
            text = f"depth {depth} best {self.game.format_move(move)} = {describe_score(score)}"
            self._line(0, text)

    def close(self) -> None:
        """Say how many lines were left out, if any; later calls write nothing."""
        if self.omitted:
            self.stream.write(f"... {self.omitted:,} more trace lines left out\n")
            self.omitted = 0
        self.stream.flush()
