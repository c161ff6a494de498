"""Game views for tests: a game after some moves, as a bot would be shown it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamut_client.bots import GameTracker, GameView
from gamut_client.bots.offline import describe, position
from gamut_engine import load_game
from gamut_protocol import (
    Clocks,
    MoveRecord,
    RoomSnapshot,
    Seat,
    Side,
    TimeControl,
    Untimed,
)


def snapshot_after(
    game_name: str,
    moves: Sequence[str] = (),
    *,
    my_side: Side = 0,
    time_control: TimeControl | None = None,
    clocks: Clocks | None = None,
    room_id: str = "r1",
    **options: Any,
) -> RoomSnapshot:
    """A player's snapshot of a game after ``moves`` (in any notation the engine reads)."""
    game = load_game(game_name, **options)
    state = game.initial_state()
    played = []
    for text in moves:
        move = game.parse_move(state, text)
        played.append(game.format_move(move))
        state = game.play(state, move)
    return RoomSnapshot(
        room_id=room_id,
        seq=len(played),
        game=describe(game),
        time_control=time_control or Untimed(),
        players=(Seat(name="ada", kind="bot"), Seat(name="bob", kind="human")),
        your_side=my_side,
        position=position(game, state),
        legal_moves=tuple(game.format_move(move) for move in game.legal_moves(state)),
        moves=tuple(MoveRecord(move=move) for move in played),
        clocks=clocks,
    )


def view_after(game_name: str, moves: Sequence[str] = (), **kwargs: Any) -> GameView:
    """The view a bot gets of a game after ``moves``."""
    return GameTracker.from_snapshot(snapshot_after(game_name, moves, **kwargs)).view
