"""What a bot sees of one game: :class:`GameView`, rebuilt by :class:`GameTracker` from the wire.

The tracker starts from a room's ``room_snapshot`` and applies each ``move_made`` and
``game_over``. When the engine knows the game it also keeps the engine's game object
and state, rebuilt from the move list (so repetition rules see the whole history), for
bots written against :mod:`gamut_engine`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from gamut_engine import AnyGame, load_game
from gamut_protocol import (
    Clocks,
    GameDescriptor,
    GameOver,
    GameResult,
    MoveMade,
    Position,
    RoomSnapshot,
    Seat,
    Side,
    TimeControl,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameView:
    """One game as a bot sees it when asked for a move (or told the game started or ended)."""

    room_id: str
    """The room the game is played in."""
    descriptor: GameDescriptor
    """The server's description of the game: name, options, sides, board geometry, notation."""
    my_side: Side
    """The side this bot plays (0 moves first)."""
    players: tuple[Seat, Seat]
    """Who plays side 0 and side 1."""
    time_control: TimeControl
    """How long players may think."""
    position: Position
    """The current position: the engine's encoding and the owner of every cell."""
    legal_moves: tuple[str, ...]
    """Every legal move of the side to move, in canonical notation."""
    moves: tuple[str, ...]
    """Every move played so far, in order."""
    clocks: Clocks | None
    """Both clocks when the last message arrived; ``None`` when untimed."""
    received_at: float
    """When the last message arrived (``time.monotonic()``), to count the clocks down."""
    game: AnyGame | None = None
    """The engine's game object, when this program's engine knows the game."""
    state: Any = None
    """The engine's state of :attr:`position`, when :attr:`game` is known."""
    result: GameResult | None = None
    """How the game ended; ``None`` while it runs."""
    rated: bool = False
    """Whether the game counts for ratings."""

    @property
    def game_name(self) -> str:
        """The game's registry name, such as ``connect5``."""
        return self.descriptor.name

    @property
    def options(self) -> Mapping[str, object]:
        """The game's options, such as ``{"size": 15}``."""
        return self.descriptor.options

    @property
    def encoding(self) -> str:
        """The engine's one-line encoding of the current position."""
        return self.position.encoding

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return self.position.ply

    @property
    def my_turn(self) -> bool:
        """Whether this bot is to move in a running game (one with legal moves left)."""
        return (
            self.result is None and self.position.to_move == self.my_side and bool(self.legal_moves)
        )

    @property
    def their_side(self) -> Side:
        """The side the opponent plays."""
        return 1 if self.my_side == 0 else 0

    @property
    def opponent(self) -> Seat:
        """Who plays the other side."""
        return self.players[self.their_side]

    @property
    def side_name(self) -> str:
        """The name of this bot's side, such as ``White`` or ``X``."""
        return self.descriptor.sides[self.my_side]

    def outcome_text(self) -> str:
        """The game's result from this bot's side, such as ``won (five) as X in 9 moves``."""
        result = self.result
        if result is None:
            return f"unfinished after {len(self.moves)} moves"
        if result.winner is None:
            outcome = "drawn"
        else:
            outcome = "won" if result.winner == self.my_side else "lost"
        return f"{outcome} ({result.reason}) as {self.side_name} in {len(self.moves)} moves"

    def time_left_ms(self, side: Side | None = None) -> int | None:
        """Milliseconds ``side`` (default: this bot's) has left now; ``None`` when untimed."""
        if self.clocks is None:
            return None
        elapsed = round((time.monotonic() - self.received_at) * 1000)
        return self.clocks.remaining(self.my_side if side is None else side, elapsed)

    def think_seconds(self, share: float = 0.8, reserve_ms: int = 250) -> float | None:
        """A safe thinking time for this move in seconds; ``None`` when untimed.

        With a per-move limit, ``share`` of what is left of it; with a game clock, a
        thirtieth of what is left plus most of the increment. ``reserve_ms`` is kept back
        for the network either way.
        """
        left = self.time_left_ms()
        if left is None:
            return None
        kind = self.time_control.kind
        if kind == "fischer":
            increment = getattr(self.time_control, "increment_ms", 0)
            budget = min(left / 30 + increment * share, left * share)
        else:
            budget = left * share
        return max(0.05, (budget - reserve_ms) / 1000)


@dataclass
class GameTracker:
    """One room's game as the messages reveal it; :attr:`view` is what a bot is shown."""

    view: GameView
    """The game as last seen."""
    engine_ok: bool = field(default=True)
    """Whether the engine state still follows the server's moves."""

    @classmethod
    def from_snapshot(cls, snapshot: RoomSnapshot) -> GameTracker:
        """Start from a room's snapshot; requires a snapshot sent to a player (``your_side``)."""
        if snapshot.your_side is None:
            raise ValueError("a spectator's snapshot has no side to play")
        moves = tuple(record.move for record in snapshot.moves)
        game, state = _replay(snapshot.game, moves)
        view = GameView(
            room_id=snapshot.room_id,
            descriptor=snapshot.game,
            my_side=snapshot.your_side,
            players=snapshot.players,
            time_control=snapshot.time_control,
            position=snapshot.position,
            legal_moves=snapshot.legal_moves,
            moves=moves,
            clocks=snapshot.clocks,
            received_at=time.monotonic(),
            game=game,
            state=state,
            result=snapshot.result,
            rated=snapshot.rated,
        )
        return cls(view=view, engine_ok=game is not None)

    def move_made(self, event: MoveMade) -> None:
        """Apply a move the server accepted."""
        old = self.view
        state = self._engine_step(old, event.move) if self.engine_ok else None
        self.view = replace(
            old,
            position=event.position,
            legal_moves=event.legal_moves,
            moves=(*old.moves, event.move),
            clocks=event.clocks,
            received_at=time.monotonic(),
            state=state,
            game=old.game if self.engine_ok else None,
        )

    def game_over(self, event: GameOver) -> None:
        """Record the result."""
        clocks = event.clocks if event.clocks is not None else self.view.clocks
        self.view = replace(self.view, result=event.result, legal_moves=(), clocks=clocks)

    def _engine_step(self, old: GameView, move: str) -> Any:
        """The engine state after ``move``, or ``None`` (and stop following) if it disagrees."""
        game = old.game
        if game is None:
            self.engine_ok = False
            return None
        try:
            return game.play(old.state, game.parse_move(old.state, move))
        except ValueError as error:
            log.warning("the engine disagrees with the server's move %r: %s", move, error)
            self.engine_ok = False
            return None


def _replay(descriptor: GameDescriptor, moves: tuple[str, ...]) -> tuple[AnyGame | None, Any]:
    """The engine's game and the state after ``moves``, or ``(None, None)`` if unknown."""
    try:
        game = load_game(descriptor.name, **descriptor.options)
    except ValueError:
        return None, None
    state = game.initial_state()
    try:
        for move in moves:
            state = game.play(state, game.parse_move(state, move))
    except ValueError as error:
        log.warning("the engine cannot replay the game in %s: %s", descriptor.name, error)
        return None, None
    return game, state
