"""The ladder's pools: one game, variant and time control each, with AI anchors.

A pool is fixed by the server's settings. The defaults are the pools each game
declares (Network, Connect Five 15×15, Lines of Action 8×8 and Crusher n=3 among the
built-in games), each with the AI at three fixed levels as anchor players.
``load_pools`` reads other pools from JSON (the ``GAMUT_LADDER`` file), so an operator
(or a test) can offer faster ones.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from pydantic import TypeAdapter, ValidationError

from gamut_engine import GAMES, IllegalMoveError, InvalidMoveError, load_game
from gamut_engine.match import read_openings, written_opening
from gamut_protocol import PerMove, TimeControl
from gamut_server.rooms.catalog import (
    BadOptionsError,
    UnknownGameError,
    check_options,
    full_options,
)

TIME_CONTROL: Final[TypeAdapter[TimeControl]] = TypeAdapter(TimeControl)
"""Reads a time control from JSON."""

DEFAULT_ANCHORS: Final = (1, 3, 5)
"""The AI levels that sit in every default pool."""


class PoolConfigError(ValueError):
    """A pool definition the server cannot offer."""


@dataclass(frozen=True, slots=True)
class PoolSpec:
    """One ladder pool."""

    pool_id: str
    """The pool's id, as ``join_ladder`` names it (``network-5s``)."""
    game: str
    """The game's registry name."""
    options: Mapping[str, bool | int | str]
    """The game's full options."""
    time_control: TimeControl
    """The server-enforced clocks of every game in the pool."""
    title: str = ""
    """The pool as people read it."""
    anchors: tuple[int, ...] = DEFAULT_ANCHORS
    """The levels of the hosted AI that play in the pool as anchor players."""
    cap_per_day: int | None = None
    """Most games between one pair of players in 24 hours; ``None``: no cap."""
    openings: tuple[tuple[str, ...], ...] = ()
    """Openings the pool's games start from (moves in the game's notation); none: the
    first position."""

    def anchor_names(self) -> tuple[str, ...]:
        """The anchors' player names (``ai-3``), as their rooms' seats call them."""
        return tuple(f"ai-{level}" for level in self.anchors)

    def describe(self) -> dict[str, Any]:
        """The pool as JSON."""
        return {
            "pool": self.pool_id,
            "title": self.title or self.pool_id,
            "game": self.game,
            "options": dict(self.options),
            "time_control": self.time_control.model_dump(mode="json"),
            "anchors": list(self.anchor_names()),
            "cap_per_day": self.cap_per_day,
            "openings": len(self.openings),
        }


def make_pool(
    pool_id: str,
    game: str,
    options: Mapping[str, Any] | None = None,
    time_control: TimeControl | None = None,
    *,
    title: str = "",
    anchors: Sequence[int] = DEFAULT_ANCHORS,
    cap_per_day: int | None = None,
    openings: Sequence[Sequence[str]] = (),
) -> PoolSpec:
    """A checked pool: the game and options must be hosted; raises :class:`PoolConfigError`."""
    try:
        full = full_options(check_options(game, dict(options or {})))
    except (UnknownGameError, BadOptionsError) as error:
        raise PoolConfigError(f"pool {pool_id}: {error}") from None
    if any(not 1 <= level <= 8 for level in anchors):
        raise PoolConfigError(f"pool {pool_id}: anchor levels go from 1 to 8")
    if cap_per_day is not None and cap_per_day < 1:
        raise PoolConfigError(f"pool {pool_id}: cap_per_day must be at least 1")
    checked = _checked_openings(pool_id, game, full, openings)
    return PoolSpec(
        pool_id=pool_id,
        game=game,
        options=full,
        time_control=time_control or PerMove(move_ms=5000),
        title=title,
        anchors=tuple(sorted(set(anchors))),
        cap_per_day=cap_per_day,
        openings=checked,
    )


def _checked_openings(
    pool_id: str, game: str, options: Mapping[str, Any], openings: Sequence[Sequence[str]]
) -> tuple[tuple[str, ...], ...]:
    """The openings, each legal in the pool's game and leaving it running."""
    played = load_game(game, **options)
    for number, moves in enumerate(openings, 1):
        try:
            written_opening(played, moves)
        except (ValueError, IllegalMoveError, InvalidMoveError) as error:
            raise PoolConfigError(f"pool {pool_id}, opening {number}: {error}") from None
    return tuple(tuple(moves) for moves in openings)


def default_pools() -> tuple[PoolSpec, ...]:
    """The pools every game declares, in the games' listing order."""
    return tuple(
        make_pool(
            pool.pool_id,
            name,
            pool.options,
            PerMove(move_ms=pool.move_ms),
            title=pool.title,
        )
        for name, game_class in GAMES.items()
        for pool in game_class.ladder_pools
    )


def pools_from_json(data: Any) -> tuple[PoolSpec, ...]:
    """Pools from parsed JSON: a list of ``{"pool", "game", "options", "time_control",
    "title", "anchors", "cap_per_day", "openings"}`` objects (all but ``pool`` and
    ``game`` optional; ``openings`` a list of move lists, or the path of an openings file
    as ``docs/openings.md`` describes)."""
    if not isinstance(data, list) or not data:
        raise PoolConfigError("the ladder's pools must be a non-empty JSON list")
    pools = tuple(_pool_from_json(item) for item in data)
    ids = [pool.pool_id for pool in pools]
    if len(set(ids)) != len(ids):
        raise PoolConfigError("two pools have the same id")
    return pools


def _pool_from_json(item: Any) -> PoolSpec:
    """One pool from its JSON object."""
    if not isinstance(item, dict) or not isinstance(item.get("pool"), str):
        raise PoolConfigError(f"a pool must be an object with a 'pool' id, not {item!r}")
    try:
        control = TIME_CONTROL.validate_python(
            item.get("time_control", {"kind": "per_move", "move_ms": 5000})
        )
    except ValidationError as error:
        raise PoolConfigError(f"pool {item['pool']}: bad time control: {error}") from None
    return make_pool(
        item["pool"],
        str(item.get("game", "")),
        item.get("options") or {},
        control,
        title=str(item.get("title", "")),
        anchors=item.get("anchors", DEFAULT_ANCHORS),
        cap_per_day=item.get("cap_per_day"),
        openings=_openings_of(item),
    )


def _openings_of(item: dict[str, Any]) -> list[list[str]]:
    """A pool's ``openings``: listed, or read from the file they name."""
    given = item.get("openings", [])
    if isinstance(given, str):
        try:
            return [list(moves) for moves in read_openings(Path(given).read_text())]
        except OSError as error:
            raise PoolConfigError(f"pool {item['pool']}: {error}") from None
    if not isinstance(given, list) or not all(
        isinstance(moves, list) and all(isinstance(move, str) for move in moves) for moves in given
    ):
        raise PoolConfigError(f"pool {item['pool']}: openings is a list of move lists or a file")
    return given


def load_pools(path: str | Path) -> tuple[PoolSpec, ...]:
    """The pools a JSON file defines (``{"pools": [...]}`` or the list itself)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise PoolConfigError(f"cannot read the ladder's pools from {path}: {error}") from None
    if isinstance(data, dict):
        data = data.get("pools")
    return pools_from_json(data)


@dataclass(frozen=True, slots=True)
class LadderSettings:
    """How a server runs its ladder."""

    pools: tuple[PoolSpec, ...] = field(default_factory=default_pools)
    """The pools offered."""
    grace_ms: int = 10_000
    """How long a player who drops out of a ladder game has to come back before losing it."""
    tick_ms: int = 250
    """How often the queue of each pool is paired."""
    seed: int | None = None
    """Seeds the pairing's chance (``None``: from the system)."""
