"""What a room is made from: its game, time control and seats, and the servers' settings."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

from gamut_protocol import PlayerKind, TimeControl, Untimed
from gamut_server.records.games import new_game_id
from gamut_server.rooms.limits import CHALLENGE_RATE, Rate

DEFAULT_AI_LEVEL: Final = 3
"""The AI's level when a stored game does not say."""

_AI_NAME = re.compile(r"^ai-(\d+)$")


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who plays one side."""

    name: str
    """The player's name; the server's AI is called ``ai-<level>`` (see :func:`ai_seat`)."""
    kind: PlayerKind
    """``human``, ``bot`` or ``ai``."""
    level: int | None = None
    """The AI's strength (1–10) when ``kind`` is ``ai``."""
    rating: int | None = None
    """The player's rating when the game started (its ladder pool's, or its category's
    for people), shown in a rated room's seats."""
    provisional: bool = False
    """Whether that rating was still provisional."""
    account: int | None = None
    """The account of the player, if they signed in to one."""

    @property
    def is_ai(self) -> bool:
        """Whether the server's AI plays this side."""
        return self.kind == "ai"


def ai_seat(level: int) -> SeatSpec:
    """The seat of the server's AI at ``level``; its name ``ai-<level>`` survives a restart."""
    return SeatSpec(name=f"ai-{level}", kind="ai", level=level)


def ai_level_from_name(name: str) -> int:
    """The level an AI seat's name records, or :data:`DEFAULT_AI_LEVEL`."""
    found = _AI_NAME.match(name)
    return int(found.group(1)) if found else DEFAULT_AI_LEVEL


@dataclass(frozen=True, slots=True)
class RoomSpec:
    """Everything that defines a room's game; rematches copy it with the seats swapped."""

    game: str
    """The game's registry name."""
    options: Mapping[str, bool | int | str]
    """The game's options (``load_game(game, **options)``); empty for the defaults."""
    seats: tuple[SeatSpec, SeatSpec]
    """Side 0 (moves first) and side 1."""
    time_control: TimeControl = field(default_factory=Untimed)
    """How long players may think."""
    rated: bool = False
    """Whether the result counts for ratings."""
    pool: str | None = None
    """The ladder pool the game belongs to, if any."""
    opening: tuple[str, ...] = ()
    """Moves (in the game's notation) played as the game starts, before anyone moves:
    a tournament's balanced opening."""

    def swapped(self) -> RoomSpec:
        """The same game with the players' sides exchanged (for a rematch)."""
        return RoomSpec(
            game=self.game,
            options=self.options,
            seats=(self.seats[1], self.seats[0]),
            time_control=self.time_control,
            rated=self.rated,
            pool=self.pool,
            opening=self.opening,
        )


@dataclass(frozen=True, slots=True)
class RoomConfig:
    """Settings shared by every room of a server."""

    grace_ms: int = 60_000
    """How long a player whose connection dropped has to come back before losing."""
    abandon_ms: int = 600_000
    """How long a room waits once both players are away before ending the game drawn."""
    untimed_grace_ms: int = 72 * 3_600_000
    """In an untimed game, how long a player may be away before the opponent wins (and,
    both away, before the game ends drawn): leaving never loses at once."""
    untimed_ai_grace_ms: int = 3_600_000
    """In an untimed game against the server's AI, how long its player may be away
    before the AI wins (``abandoned``) and the room leaves the lobby."""
    lag_allowance_ms: int = 500
    """How far past zero a clock may run before it flags (network lag)."""
    chat_history: int = 100
    """How many chat lines a snapshot carries."""
    max_events: int = 5_000
    """How many events a room keeps for replay on ``resume``; older ones get a snapshot."""
    new_room_id: Callable[[], str] = new_game_id
    """Makes the id of a rematch room."""


@dataclass(frozen=True, slots=True)
class LobbyConfig:
    """Settings of the lobby."""

    max_seeks: int = 5
    """Most open seeks (and challenges) one player may have."""
    max_rooms: int = 10
    """Most unfinished games one player may sit in at once."""
    max_challenges_waiting: int = 10
    """Most open challenges to one player at once."""
    challenges: Rate = CHALLENGE_RATE
    """Challenges one player may receive: a burst, then a sustained rate."""
    chat_history: int = 50
    """How many lobby chat lines a snapshot carries."""
    max_listed_online: int = 200
    """Most players a snapshot's ``present`` lists (``online`` still counts them all)."""
    new_room_id: Callable[[], str] = new_game_id
    """Makes the id of a new room."""
    choose_side: Callable[[], int] | None = None
    """Draws the seeker's side when a seek leaves it open; ``None``: a fair coin."""
    seek_prefix: str = "s"
    """What the ids of new seeks start with (a number follows). A cluster's lobby
    leaders each take one of their own, so that a seek kept from an earlier leader
    never finds its id taken."""
