"""The lobby's vocabulary: the games on offer, seeks and the rooms being played."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictInt

from gamut_protocol.common import (
    MAX_AI_LEVEL,
    MAX_LIST_LENGTH,
    MAX_RATING_GAP,
    ClientKind,
    Count,
    GameName,
    GameOptions,
    OptionName,
    OptionValue,
    PlayerName,
    Ply,
    Rating,
    RoomId,
    SeekId,
    Sentence,
    Side,
    Title,
    WireModel,
)
from gamut_protocol.descriptor import NotationHint
from gamut_protocol.room import RoomStatus, Seat
from gamut_protocol.timecontrol import TimeControl, Untimed


class AnyOpponent(WireModel):
    """An open seek: anyone in the lobby may accept it."""

    kind: Literal["anyone"] = "anyone"


class NamedOpponent(WireModel):
    """A challenge to one player by name; only they may accept it."""

    kind: Literal["player"] = "player"
    name: PlayerName
    """The challenged player."""


class AiOpponent(WireModel):
    """A game against the server's AI, which starts at once."""

    kind: Literal["ai"] = "ai"
    level: Annotated[StrictInt, Field(ge=1, le=MAX_AI_LEVEL)] = 3
    """Strength from 1 (weakest) to :data:`MAX_AI_LEVEL`."""


Opponent = Annotated[AnyOpponent | NamedOpponent | AiOpponent, Field(discriminator="kind")]
"""Whom a seek is for: ``anyone``, a named ``player``, or the ``ai`` at a level."""

RatingGap = Annotated[StrictInt, Field(ge=0, le=MAX_RATING_GAP)]
"""How far from the seeker's rating an opponent's may be, in rating points."""


class RatingRange(WireModel):
    """The opponents a rated seek accepts: those whose rating in the seek's category is
    at most ``below`` under the seeker's and at most ``above`` over it (protocol 5 on)."""

    below: RatingGap
    """Rating points an opponent may be below the seeker."""
    above: RatingGap
    """Rating points an opponent may be above the seeker."""


class SeekTerms(WireModel):
    """The game a player asks for."""

    game: GameName
    """The game's registry name."""
    options: GameOptions = Field(default_factory=dict)
    """The game's options; omitted ones take the game's defaults."""
    time_control: TimeControl = Field(default_factory=Untimed)
    """How long players may think."""
    opponent: Opponent = Field(default_factory=AnyOpponent)
    """Whom the game is against."""
    side: Side | None = None
    """The side the seeker wants to play (0 moves first); ``null`` for either, drawn by lot."""
    rated: bool = False
    """Whether the result counts for ratings (both players need an account)."""
    rating_range: RatingRange | None = None
    """For a rated seek: the opponents' ratings it accepts; ``null``: any (protocol 5 on)."""


class _SeekHeading(WireModel):
    """The fields a seek gains once the server lists it."""

    seek_id: SeekId
    """The id to accept or cancel it by."""
    author: PlayerName
    """Who made the seek."""
    title: Title
    """The game's title with these options, such as ``Connect Five 15×15``."""
    author_rating: Rating | None = None
    """For a rated seek: its author's rating in the seek's category (protocol 5 on)."""
    author_provisional: bool | None = None
    """``true`` when that rating is still provisional (protocol 5 on)."""


class SeekInfo(SeekTerms, _SeekHeading):
    """An open seek as the lobby shows it."""


class RoomSummary(WireModel):
    """One room as the lobby lists it, for spectators to pick."""

    room_id: RoomId
    """The room's id."""
    game: GameName
    """The game's registry name."""
    options: GameOptions = Field(default_factory=dict)
    """The game's options."""
    title: Title
    """The game's title with these options."""
    time_control: TimeControl = Field(default_factory=Untimed)
    """The room's time control."""
    players: tuple[Seat, Seat]
    """Who plays side 0 and side 1."""
    status: RoomStatus = "running"
    """Whether the game is still being played."""
    ply: Ply = 0
    """Moves played so far."""
    spectators: Count = 0
    """How many are watching."""
    rated: bool = False
    """Whether the result counts for ratings."""


class OnlinePlayer(WireModel):
    """One player who is online, as the lobby lists them (protocol version 2 on)."""

    name: PlayerName
    """The player's name."""
    kind: ClientKind
    """``human`` or ``bot``, as their first connection's ``hello`` said."""
    playing: Annotated[tuple[RoomId, ...], Field(max_length=MAX_LIST_LENGTH)] = ()
    """The rooms where they have a seat in an unfinished game; empty when they play none."""


class OptionInfo(WireModel):
    """One option a game takes, so a client can offer it without knowing the game."""

    name: OptionName
    """The option's name, as ``load_game`` takes it."""
    help: Sentence
    """What it changes, for people."""
    default: OptionValue
    """Its value when left out."""
    choices: Annotated[tuple[OptionValue, ...], Field(max_length=32)] = ()
    """The values allowed, when they are a short list."""
    minimum: StrictInt | None = None
    """The smallest integer allowed, for a range."""
    maximum: StrictInt | None = None
    """The largest integer allowed, for a range."""


class GameInfo(WireModel):
    """One game the server offers."""

    name: GameName
    """The registry name to seek it by."""
    title: Title
    """Its name for people, with the default options."""
    sides: tuple[Title, Title]
    """The names of side 0 (who moves first) and side 1, with the default options."""
    options: Annotated[tuple[OptionInfo, ...], Field(max_length=16)] = ()
    """The options it takes."""
    notation: NotationHint
    """How moves are written."""
