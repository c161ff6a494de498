"""The parts of a room that several messages share: seats, moves, chat lines and results."""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import Field

from gamut_protocol.common import (
    MAX_CELLS,
    CellName,
    ChatText,
    Code,
    Millis,
    MoveText,
    PlayerKind,
    PlayerName,
    Rating,
    Sentence,
    Seq,
    Side,
    WireModel,
)

RoomStatus = Literal["running", "finished", "aborted"]
"""A room's game: still being played, over with a result, or called off before it started."""

RESIGN: Final = "resign"
"""End reason: a player resigned; the other side wins."""
TIMEOUT: Final = "timeout"
"""End reason: a player's clock ran out; the other side wins."""
AGREEMENT: Final = "agreement"
"""End reason: both players agreed to a draw."""
ABORTED: Final = "aborted"
"""End reason: the game was called off before both sides had moved; nobody wins."""
ABANDONED: Final = "abandoned"
"""End reason: a player stayed away past the reconnection grace period; the other side wins."""
SERVER_END_REASONS: Final = (RESIGN, TIMEOUT, AGREEMENT, ABORTED, ABANDONED)
"""The end reasons the server adds to the engine's own (``network``, ``five``, ``repetition``…)."""


class Seat(WireModel):
    """Who plays one side of a room."""

    name: PlayerName
    """The player's name."""
    kind: PlayerKind
    """``human``, ``bot`` or ``ai`` (the server's own engine)."""
    connected: bool = True
    """Whether the player is connected now (the AI always is)."""
    rating: Rating | None = None
    """The player's rating when the game started, in a rated game (its ladder pool's, or
    for people its rating category's)."""
    provisional: bool | None = None
    """``true`` when that rating is still provisional (protocol 5 on)."""


class MoveRecord(WireModel):
    """One move in a room's move list."""

    move: MoveText
    """The move in the game's canonical notation."""
    think_ms: Millis | None = None
    """How long the mover thought, when the game is timed."""


class ChatEntry(WireModel):
    """One chat line in a snapshot's history."""

    author: PlayerName
    """Who wrote it."""
    text: ChatText
    """What they wrote."""
    seq: Seq | None = None
    """The room sequence number the line had (``null`` in the lobby, which has none)."""


class GameResult(WireModel):
    """How a game ended."""

    winner: Side | None = None
    """The winning side; ``null`` (or absent) for a draw or an aborted game."""
    reason: Code
    """Why it ended: an engine reason (``network``, ``five``, ``connected``, ``crushed``,
    ``repetition``, ``max_plies``…) or a server one (:data:`SERVER_END_REASONS`)."""
    line: Annotated[tuple[CellName, ...], Field(max_length=MAX_CELLS)] = ()
    """The cells of the winning network or line, in order, when the game has one."""
    message: Sentence | None = None
    """The result for people, such as "White completes a network"."""
