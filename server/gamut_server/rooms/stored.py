"""Translating between a room and the storage layer's records."""

from __future__ import annotations

from typing import Final

from pydantic import TypeAdapter

from gamut_protocol import GameResult, TimeControl
from gamut_server.records.games import Clock, GameInfo, NewGame, Player, Result
from gamut_server.rooms.describe import wire_options
from gamut_server.rooms.spec import RoomSpec, SeatSpec, ai_level_from_name

TIME_CONTROL_ADAPTER: Final[TypeAdapter[TimeControl]] = TypeAdapter(TimeControl)
"""Reads a stored time control back."""


def new_game(room_id: str, spec: RoomSpec, clock: Clock) -> NewGame:
    """The store's record of a room's game as it starts."""
    return NewGame(
        game=spec.game,
        options=dict(spec.options),
        time_control=spec.time_control.model_dump(mode="json"),
        players=(_player(spec.seats[0]), _player(spec.seats[1])),
        clock=clock,
        rated=spec.rated,
        pool=spec.pool,
        game_id=room_id,
    )


def _player(seat: SeatSpec) -> Player:
    """A seat as the store keeps it."""
    return Player(name=seat.name, kind=seat.kind, account_id=seat.account)


def spec_from_record(info: GameInfo) -> RoomSpec:
    """The spec of a stored game; raises ``ValueError`` if a seat is empty."""
    first, second = info.players
    if first is None or second is None:
        raise ValueError(f"game {info.id} has an empty seat")
    return RoomSpec(
        game=info.game,
        options=wire_options(info.options),
        seats=(_seat(first), _seat(second)),
        time_control=TIME_CONTROL_ADAPTER.validate_python(dict(info.time_control)),
        rated=info.rated,
        pool=info.pool,
    )


def _seat(player: Player) -> SeatSpec:
    """A stored player as a seat (a stored guest plays as a human)."""
    if player.kind == "ai":
        level = ai_level_from_name(player.name)
        return SeatSpec(name=player.name, kind="ai", level=level)
    if player.kind == "bot":
        return SeatSpec(name=player.name, kind="bot", account=player.account_id)
    return SeatSpec(name=player.name, kind="human", account=player.account_id)


def stored_result(result: GameResult) -> Result:
    """A wire result as the store keeps it."""
    return Result(winner=result.winner, reason=result.reason, line=result.line)
