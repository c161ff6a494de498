"""Translation between table rows and the store's dataclasses."""

from __future__ import annotations

from typing import Any, cast, get_args

from sqlalchemy import RowMapping

from gamut_server.records.games import (
    Account,
    ChatLine,
    Clock,
    GameInfo,
    GameStatus,
    JSONObject,
    MoveRecord,
    Player,
    PlayerKind,
    Result,
)

_KINDS = frozenset(get_args(PlayerKind))
_STATUSES = frozenset(get_args(GameStatus))


def player_values(players: tuple[Player | None, Player | None]) -> dict[str, Any]:
    """The player columns of a games row."""
    values: dict[str, Any] = {}
    for side, player in enumerate(players):
        values[f"p{side}_name"] = player.name if player else None
        values[f"p{side}_kind"] = player.kind if player else None
        values[f"p{side}_account"] = player.account_id if player else None
    return values


def clock_values(clock: Clock) -> dict[str, Any]:
    """The clock columns of a games or moves row."""
    remaining = clock.remaining_ms or (None, None)
    return {"clock0_ms": remaining[0], "clock1_ms": remaining[1], "to_move": clock.to_move}


def result_values(result: Result) -> dict[str, Any]:
    """The result columns of a games row."""
    return {"winner": result.winner, "reason": result.reason, "line": list(result.line)}


def _player(row: RowMapping, side: int) -> Player | None:
    name = row[f"p{side}_name"]
    if name is None:
        return None
    kind = row[f"p{side}_kind"]
    if kind not in _KINDS:
        raise ValueError(f"stored player kind {kind!r} is not one of {sorted(_KINDS)}")
    return Player(name=name, kind=cast(PlayerKind, kind), account_id=row[f"p{side}_account"])


def _clock(row: RowMapping) -> Clock:
    first, second = row["clock0_ms"], row["clock1_ms"]
    remaining = None if first is None or second is None else (int(first), int(second))
    return Clock(remaining_ms=remaining, to_move=int(row["to_move"]))


def _result(row: RowMapping) -> Result | None:
    if row["reason"] is None:
        return None
    return Result(winner=row["winner"], reason=row["reason"], line=tuple(row["line"] or ()))


def _status(value: str) -> GameStatus:
    if value not in _STATUSES:
        raise ValueError(f"stored game status {value!r} is not one of {sorted(_STATUSES)}")
    return cast(GameStatus, value)


def row_game(row: RowMapping) -> GameInfo:
    """A games row as a :class:`GameInfo`."""
    return GameInfo(
        id=row["id"],
        game=row["game"],
        options=cast(JSONObject, row["options"]),
        time_control=cast(JSONObject, row["time_control"]),
        players=(_player(row, 0), _player(row, 1)),
        rated=bool(row["rated"]),
        pool=row["pool"],
        status=_status(row["status"]),
        result=_result(row),
        clock=_clock(row),
        clock_at=row["clock_at"],
        plies=int(row["plies"]),
        last_seq=int(row["last_seq"]),
        created_at=row["created_at"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
    )


def row_move(row: RowMapping) -> MoveRecord:
    """A moves row as a :class:`MoveRecord`."""
    return MoveRecord(
        ply=int(row["ply"]),
        move=row["move"],
        side=int(row["side"]),
        think_ms=int(row["think_ms"]),
        clock=_clock(row),
        seq=int(row["seq"]),
        at=row["at"],
    )


def row_chat(row: RowMapping) -> ChatLine:
    """A chat row as a :class:`ChatLine`."""
    return ChatLine(
        room=row["room"], seq=int(row["seq"]), author=row["author"], text=row["text"], at=row["at"]
    )


def row_account(row: RowMapping) -> Account:
    """An accounts row as an :class:`Account`."""
    return Account(
        id=int(row["id"]),
        name=row["name"],
        token_hash=row["token_hash"],
        created_at=row["created_at"],
        revoked=bool(row["revoked"]),
        password_hash=row["password_hash"],
        name_key=row["name_key"],
    )
