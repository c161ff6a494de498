"""What the ladder's queues are told, as data: sign-ins, departures, requests, game ends.

On a server alone the ladder is told directly; in a cluster every node tells the node
leading the lobby, which runs the one set of queues and pairs for everyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from gamut_protocol import JoinLadder, LeaveLadder, PlayerKind
from gamut_server.rooms import Room, Who


@dataclass(frozen=True, slots=True)
class Session:
    """A connection signed in with an account's token."""

    who: Who
    """The connection, its name (the account's) and kind."""
    account_id: int
    """The account's database id."""


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A connection signed in: its pools take its player back in the queue."""

    session: Session
    """Who."""
    op: Literal["signed_in"] = "signed_in"


@dataclass(frozen=True, slots=True)
class SignedOut:
    """A signed-in connection closed."""

    conn: int
    """The connection."""
    op: Literal["signed_out"] = "signed_out"


@dataclass(frozen=True, slots=True)
class Refilled:
    """A node has signed all its connections in again with a new leader (each of its
    :class:`SignedIn` went before this, in order)."""

    node: int
    """The node's number in its cluster."""
    op: Literal["refilled"] = "refilled"


@dataclass(frozen=True, slots=True)
class LadderRequest:
    """``join_ladder`` or ``leave_ladder`` from a connection."""

    who: Who
    """Who asks."""
    message: JoinLadder | LeaveLadder
    """What."""
    op: Literal["request"] = "request"


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of an ended ladder game."""

    name: str
    """The player (``ai-<level>`` for an anchor)."""
    kind: PlayerKind
    """How the seat plays."""


@dataclass(frozen=True, slots=True)
class GameEnded:
    """A ladder game ended (finished or aborted)."""

    room_id: str
    """The game."""
    pool: str
    """Its pool."""
    seats: tuple[SeatResult, SeatResult]
    """Side 0 and side 1."""
    finished: bool
    """Played to a result (else aborted, and not rated)."""
    winner: int | None
    """The winning side, ``None`` for a draw."""
    timeout: bool
    """Whether the loser lost on time."""
    op: Literal["game_ended"] = "game_ended"

    @classmethod
    def of(cls, room: Room) -> GameEnded:
        """How ``room``'s ladder game ended."""
        result = room.match.result
        first, second = (SeatResult(seat.name, seat.kind) for seat in room.spec.seats)
        return cls(
            room_id=room.room_id,
            pool=room.spec.pool or "",
            seats=(first, second),
            finished=room.match.status == "finished" and result is not None,
            winner=None if result is None else result.winner,
            timeout=result is not None and result.reason == "timeout",
        )


LadderOp: TypeAlias = SignedIn | SignedOut | LadderRequest | GameEnded | Refilled
"""Anything the ladder's queues are told."""
