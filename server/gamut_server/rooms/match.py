"""The game played in a room: the engine's state, the move list, the clocks and the result.

:class:`Match` is the referee: it checks a move in the order the protocol promises
(game over, whose turn, the ply answered, the notation, the rules) and raises a
:class:`~gamut_server.rooms.refusal.RefusalError` naming the first check that fails.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from gamut_engine import AnyGame, IllegalMoveError, InvalidMoveError
from gamut_protocol import (
    Fischer,
    GameResult,
    MoveRecord,
    PerMove,
    Position,
    RoomStatus,
    TimeControl,
)
from gamut_server.rooms.clock import GameClock
from gamut_server.rooms.describe import legal_texts, outcome_result, position, variant_texts
from gamut_server.rooms.refusal import RefusalError

AI_SAFETY_MS: Final = 300
"""How much of a per-move limit the AI leaves unused, for the trip back."""

AI_MOVES_TO_GO: Final = 30
"""The AI spends about 1/30 of its total time on a move in a total-time game."""


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """A move the room has just accepted."""

    ply: int
    """The ply it was played at."""
    side: int
    """Who played it."""
    text: str
    """The move in canonical notation."""
    cells: tuple[str, ...]
    """The cells it touches."""
    think_ms: int
    """How long the mover took, as the server measured it."""


@dataclass(frozen=True, slots=True)
class MatchMark:
    """A match as it was at one moment, to go back to (see :meth:`Match.rewind`)."""

    state: Any
    plies: int
    status: RoomStatus
    result: GameResult | None
    clock: GameClock


class Match:
    """One game in progress or over: position, history, clocks, result."""

    def __init__(self, game: AnyGame, control: TimeControl, clock: GameClock) -> None:
        """The game at its start position, with ``clock`` (not yet started)."""
        self.game = game
        """The engine's rules object."""
        self.control = control
        """The time control."""
        self.clock = clock
        """Both clocks."""
        self.state: Any = game.initial_state()
        """The current position."""
        self.moves: list[MoveRecord] = []
        """Every move so far, with think times."""
        self.status: RoomStatus = "running"
        """Whether the game runs, is finished or was aborted."""
        self.result: GameResult | None = None
        """How it ended, once it has."""
        self._legal: tuple[str, ...] | None = None
        self._texts = variant_texts(game)

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return len(self.moves)

    @property
    def to_move(self) -> int:
        """The side whose turn it is."""
        return self.game.to_move(self.state)

    @property
    def over(self) -> bool:
        """Whether the game has ended (finished or aborted)."""
        return self.status != "running"

    def replay(self, texts: Sequence[str], think_ms: Sequence[int]) -> None:
        """Play stored moves from the start; raises ``ValueError`` on one the rules refuse."""
        for ply, (text, think) in enumerate(zip(texts, think_ms, strict=True)):
            try:
                move = self.game.parse_move(self.state, text)
            except (InvalidMoveError, IllegalMoveError) as error:
                raise ValueError(f"stored move {ply} ({text!r}) is refused: {error}") from None
            self.state = self.game.play(self.state, move)
            self.moves.append(MoveRecord(move=self.game.format_move(move), think_ms=think))
        self._legal = None

    def check(self, side: int, text: str, ply: int) -> Any:
        """The engine's move for ``text`` from ``side`` answering ``ply``, checked in order."""
        if self.over:
            raise RefusalError("game_over", "the game is over")
        if side != self.to_move:
            raise RefusalError("not_your_turn", f"it is {self.game.sides[self.to_move]}'s turn")
        if ply != self.ply:
            raise RefusalError(
                "stale_ply", f"the move answers ply {ply}, but the game is at ply {self.ply}"
            )
        try:
            return self.game.parse_move(self.state, text)
        except InvalidMoveError as error:
            raise RefusalError("invalid_move", str(error)) from None
        except IllegalMoveError as error:
            raise RefusalError("illegal_move", error.message, reason=error.reason) from None

    def play(self, move: Any, now_ms: int) -> PlayedMove:
        """Play a checked move at ``now_ms``: the clocks turn over."""
        side = self.to_move
        think_ms = self.clock.press(now_ms)
        text = self.game.format_move(move)
        played = PlayedMove(self.ply, side, text, self.game.move_cells(move), think_ms)
        self.state = self.game.play(self.state, move)
        self.moves.append(MoveRecord(move=text, think_ms=think_ms))
        self._legal = None
        return played

    def mark(self) -> MatchMark:
        """The match as it is now (positions are immutable; the clock is copied)."""
        return MatchMark(self.state, self.ply, self.status, self.result, copy.copy(self.clock))

    def rewind(self, mark: MatchMark) -> None:
        """Go back to ``mark``: the moves played since are forgotten, the clocks restored."""
        self.state = mark.state
        del self.moves[mark.plies :]
        self.status = mark.status
        self.result = mark.result
        self.clock = copy.copy(mark.clock)
        self._legal = None

    def ended_by_rules(self) -> GameResult | None:
        """The result if the position ends the game by the rules."""
        outcome = self.game.outcome(self.state)
        return None if outcome is None else outcome_result(self.game, outcome)

    def finish(self, result: GameResult, now_ms: int, *, aborted: bool = False) -> None:
        """End the game with ``result`` at ``now_ms``; the clocks stop."""
        self.clock.stop(now_ms)
        self.result = result
        self.status = "aborted" if aborted else "finished"
        self._legal = ()

    def position(self) -> Position:
        """The current position for the wire."""
        return position(self.game, self.state)

    def legal(self) -> tuple[str, ...]:
        """Every legal move now, in canonical notation (none once the game is over)."""
        if self._legal is None:
            self._legal = () if self.over else legal_texts(self.game, self.state, self._texts)
        return self._legal

    def move_texts(self) -> tuple[str, ...]:
        """Every move so far, in canonical notation."""
        return tuple(record.move for record in self.moves)

    def ai_budget_ms(self, now_ms: int) -> int | None:
        """How long the AI may think on this move; ``None`` when the clocks allow anything."""
        left = self.clock.remaining(self.to_move, now_ms)
        if left is None:
            return None
        if isinstance(self.control, PerMove):
            return max(50, left - AI_SAFETY_MS)
        if isinstance(self.control, Fischer):
            share = left // AI_MOVES_TO_GO + self.control.increment_ms * 3 // 4
            return max(50, min(share, left // 2))
        return None
