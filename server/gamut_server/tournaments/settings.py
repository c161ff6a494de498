"""A new tournament as asked for (``POST /api/tournaments``), checked, with a sentence
for each refusal."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Final

from pydantic import TypeAdapter, ValidationError

from gamut_engine import GAMES, AnyGame, IllegalMoveError, InvalidMoveError, load_game
from gamut_engine.match import written_opening
from gamut_protocol import TimeControl, Untimed
from gamut_protocol.errors import ErrorCode
from gamut_server.records.tournaments import Entry, TournamentKind, TournamentSettings

KINDS: Final[tuple[TournamentKind, ...]] = ("arena", "round_robin")
ENTRIES: Final[tuple[Entry, ...]] = ("people", "bots", "both")
MAX_MINUTES: Final = 24 * 60
"""The longest arena."""
MAX_CYCLES: Final = 4
"""The most cycles of a round robin."""
MAX_OPENINGS: Final = 500
"""The most openings a tournament takes."""
MAX_OPENING_PLIES: Final = 60
"""The longest opening."""
MAX_AHEAD: Final = timedelta(days=30)
"""How far ahead a tournament may be announced."""
TIME_CONTROL: Final[TypeAdapter[Any]] = TypeAdapter(TimeControl)


class TournamentRefusedError(ValueError):
    """A tournament that cannot be created; the message says why, for people."""


class EntryRefusedError(Exception):
    """An entry or a withdrawal a tournament does not take; the sentence says why."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        """The error code."""
        self.message = message
        """The sentence."""


def new_tournament(body: dict[str, Any], now: datetime) -> TournamentSettings:
    """The settings ``body`` asks for; :class:`TournamentRefusedError` with a sentence."""
    game = _choice(body, "game", tuple(GAMES), None)
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise TournamentRefusedError("options must be an object of the game's options")
    try:
        loaded = load_game(game, **options)
    except (TypeError, ValueError) as error:
        raise TournamentRefusedError(f"{game}: {error}") from None
    title = loaded.title
    kind = _choice(body, "kind", KINDS, "arena")
    name = body.get("name", f"{title} {kind.replace('_', ' ')}")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 80:
        raise TournamentRefusedError("a tournament's name has 1 to 80 characters")
    minutes = _number(body, "minutes", 1, MAX_MINUTES, 30) if kind == "arena" else None
    rounds = _number(body, "rounds", 1, MAX_CYCLES, 1) if kind == "round_robin" else None
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise TournamentRefusedError("rated is true or false")
    return TournamentSettings(
        name=name.strip(),
        game=game,
        options=options,
        time_control=_time_control(body.get("time_control")),
        kind=kind,
        rated=rated,
        entry=_choice(body, "entry", ENTRIES, "both"),
        starts_at=_start(body, now),
        minutes=minutes,
        rounds=rounds,
        openings=_openings(body.get("openings"), loaded),
    )


def _openings(value: Any, game: AnyGame) -> list[list[str]] | None:
    """The openings asked for, each checked on ``game``: legal, and the game still on."""
    if value is None:
        return None
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_OPENINGS:
        raise TournamentRefusedError(f"openings is a list of 1 to {MAX_OPENINGS} openings")
    for number, moves in enumerate(value, 1):
        if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
            raise TournamentRefusedError(f"opening {number} is not a list of moves")
        if len(moves) > MAX_OPENING_PLIES:
            raise TournamentRefusedError(f"opening {number} is longer than {MAX_OPENING_PLIES}")
        try:
            written_opening(game, moves)
        except (ValueError, IllegalMoveError, InvalidMoveError) as error:
            raise TournamentRefusedError(f"opening {number}: {error}") from None
    return [list(moves) for moves in value]


def _choice(body: dict[str, Any], key: str, choices: tuple[Any, ...], default: Any) -> Any:
    value = body.get(key, default)
    if value not in choices:
        raise TournamentRefusedError(f"{key} must be one of {', '.join(choices)}")
    return value


def _number(body: dict[str, Any], key: str, low: int, high: int, default: int) -> int:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise TournamentRefusedError(f"{key} must be a whole number from {low} to {high}")
    return value


def _time_control(value: Any) -> dict[str, Any]:
    if value is None:
        raise TournamentRefusedError(
            'a tournament needs a clock: time_control such as {"kind": "per_move", '
            '"move_ms": 5000} or {"kind": "fischer", "initial_ms": 300000, "increment_ms": 2000}'
        )
    try:
        control = TIME_CONTROL.validate_python(value)
    except ValidationError as error:
        reason = error.errors()[0]["msg"]
        raise TournamentRefusedError(f"time_control is not a time control: {reason}") from None
    if isinstance(control, Untimed):
        raise TournamentRefusedError("a tournament's games need a clock, not untimed")
    dumped: dict[str, Any] = control.model_dump(mode="json")
    return dumped


def _start(body: dict[str, Any], now: datetime) -> datetime:
    """``starts_in`` seconds from now (default 0), or ``starts_at`` (ISO 8601 with zone)."""
    if "starts_at" in body:
        try:
            starts_at = datetime.fromisoformat(str(body["starts_at"]))
        except ValueError:
            starts_at = None
        if starts_at is None or starts_at.tzinfo is None:
            raise TournamentRefusedError(
                "starts_at is a moment in ISO 8601 with its time zone, such as "
                "2026-12-01T18:00:00+00:00"
            )
    else:
        seconds = _number(body, "starts_in", 0, int(MAX_AHEAD.total_seconds()), 0)
        starts_at = now + timedelta(seconds=seconds)
    if starts_at > now + MAX_AHEAD:
        raise TournamentRefusedError("a tournament starts within 30 days")
    if starts_at < now - timedelta(minutes=1):
        raise TournamentRefusedError("starts_at has passed: give a moment to come")
    return starts_at
