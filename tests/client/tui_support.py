"""Helpers for the terminal client's tests: protocol messages built from real engine games.

Snapshots and events are made with the server's own translation of engine games
(``gamut_server.rooms.describe``), so the view models are tested on exactly what
a server sends.
"""

from __future__ import annotations

from typing import Any

from gamut_engine import AnyGame, load_game
from gamut_protocol import (
    Clocks,
    GameOver,
    MoveMade,
    MoveRecord,
    RoomSnapshot,
    Seat,
    Side,
    TimeControl,
    Untimed,
)
from gamut_server.rooms.describe import describe, legal_texts, outcome_result, position

WHITE_WINS = ("01", "10", "72", "20", "61", "40", "34", "50", "31", "12", "64")
"""A Network game that White wins with the network 01-31-34-64-61-72 on its eleventh move."""

PLAYERS = (Seat(name="ada", kind="human"), Seat(name="bot7", kind="bot"))
"""The seats of the made-up rooms."""


def play_out(game: AnyGame, moves: tuple[str, ...]) -> Any:
    """The state after ``moves`` from the start."""
    state = game.initial_state()
    for text in moves:
        state = game.apply(state, game.parse_move(state, text))
    return state


def snapshot(
    game: AnyGame,
    moves: tuple[str, ...] = (),
    *,
    your_side: Side | None = 0,
    room_id: str = "r1",
    seq: int = 0,
    clocks: Clocks | None = None,
    time_control: TimeControl | None = None,
) -> RoomSnapshot:
    """The snapshot of a room where ``moves`` were played in ``game``."""
    state = play_out(game, moves)
    outcome = game.outcome(state)
    return RoomSnapshot(
        room_id=room_id,
        seq=seq,
        status="running" if outcome is None else "finished",
        game=describe(game),
        time_control=time_control or Untimed(),
        players=PLAYERS,
        your_side=your_side,
        position=position(game, state),
        legal_moves=legal_texts(game, state),
        moves=tuple(MoveRecord(move=text) for text in moves),
        clocks=clocks,
        result=None if outcome is None else outcome_result(game, outcome),
    )


def move_made(
    game: AnyGame,
    before: tuple[str, ...],
    move: str,
    *,
    seq: int,
    room_id: str = "r1",
    clocks: Clocks | None = None,
) -> MoveMade:
    """The ``move_made`` of ``move`` played after ``before``."""
    state = play_out(game, before)
    parsed = game.parse_move(state, move)
    after = game.apply(state, parsed)
    side = game.to_move(state)
    return MoveMade(
        room_id=room_id,
        seq=seq,
        ply=len(before),
        side=0 if side == 0 else 1,
        move=game.format_move(parsed),
        cells=game.move_cells(parsed),
        clocks=clocks,
        position=position(game, after),
        legal_moves=legal_texts(game, after),
    )


def game_over(game: AnyGame, moves: tuple[str, ...], *, seq: int, room_id: str = "r1") -> GameOver:
    """The ``game_over`` after ``moves`` ended the game."""
    outcome = game.outcome(play_out(game, moves))
    assert outcome is not None
    return GameOver(room_id=room_id, seq=seq, result=outcome_result(game, outcome))


def network() -> AnyGame:
    """Network with the default (cs61b) rules."""
    return load_game("network")
