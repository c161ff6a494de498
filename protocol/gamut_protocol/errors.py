"""Error codes: stable, machine-readable, each with a sentence saying when it is sent.

An ``error`` message carries one of these codes, a sentence for people, the ``id`` and
type of the client message it answers, and for ``illegal_move`` the engine's own reason
code (``occupied``, ``cluster``…). Clients branch on the code, never on the sentence.
"""

from __future__ import annotations

from typing import Final, Literal

ErrorCode = Literal[
    "bad_json",
    "bad_message",
    "too_large",
    "unsupported_version",
    "not_authenticated",
    "already_authenticated",
    "bad_token",
    "name_taken",
    "unknown_game",
    "bad_options",
    "unknown_player",
    "unknown_seek",
    "own_seek",
    "too_many_seeks",
    "unknown_room",
    "not_in_room",
    "not_a_player",
    "seat_taken",
    "not_your_turn",
    "stale_ply",
    "invalid_move",
    "illegal_move",
    "game_over",
    "too_late_to_abort",
    "nothing_offered",
    "unknown_pool",
    "unknown_tournament",
    "rate_limited",
    "unavailable",
    "internal_error",
    "banned",
    "muted",
    "refused",
]
"""Every error code the server may send."""

BAD_JSON: Final = "bad_json"
"""The message was not UTF-8 JSON text."""
BAD_MESSAGE: Final = "bad_message"
"""The JSON was not a valid message: not an object, unknown ``type``, a field missing,
unknown, of the wrong type or out of bounds. The sentence names the fields."""
TOO_LARGE: Final = "too_large"
"""The message was longer than :data:`MAX_CLIENT_MESSAGE_BYTES`; the server closes."""
UNSUPPORTED_VERSION: Final = "unsupported_version"
"""The ``hello`` named a protocol version this server does not speak; the server closes."""
NOT_AUTHENTICATED: Final = "not_authenticated"
"""A message other than ``hello`` (or ``ping``) came before the ``hello``."""
ALREADY_AUTHENTICATED: Final = "already_authenticated"
"""A second ``hello`` on a connection that has been welcomed."""
BAD_TOKEN: Final = "bad_token"
"""The ``hello``'s token is unknown, revoked, or belongs to another name."""
NAME_TAKEN: Final = "name_taken"
"""The name belongs to an account (send its token) or to another connected player."""
UNKNOWN_GAME: Final = "unknown_game"
"""The seek names a game this server does not host."""
BAD_OPTIONS: Final = "bad_options"
"""The game refused the options; the sentence is the engine's."""
UNKNOWN_PLAYER: Final = "unknown_player"
"""The challenged player is not connected."""
UNKNOWN_SEEK: Final = "unknown_seek"
"""No open seek has this id (it may just have been accepted or cancelled)."""
OWN_SEEK: Final = "own_seek"
"""A player tried to accept their own seek, or to cancel someone else's."""
TOO_MANY_SEEKS: Final = "too_many_seeks"
"""The player already has as many open seeks as the server allows."""
UNKNOWN_ROOM: Final = "unknown_room"
"""No room has this id."""
NOT_IN_ROOM: Final = "not_in_room"
"""The message names a room this connection has not joined."""
NOT_A_PLAYER: Final = "not_a_player"
"""Only the room's players may do this (move, resign, offer a draw…); spectators may not."""
SEAT_TAKEN: Final = "seat_taken"
"""Joining as a player a room whose seats belong to others."""
NOT_YOUR_TURN: Final = "not_your_turn"
"""A move from the side not to move."""
STALE_PLY: Final = "stale_ply"
"""The move answers an earlier position than the current one (its ``ply`` is out of date)."""
INVALID_MOVE: Final = "invalid_move"
"""The move text is not a move in the game's notation at all."""
ILLEGAL_MOVE: Final = "illegal_move"
"""A well-formed move the rules forbid here; ``reason`` holds the engine's code and the
sentence its explanation (``occupied``, ``cluster``, ``repeated_position``…)."""
GAME_OVER: Final = "game_over"
"""The game has ended: no more moves, draw offers or resignations."""
TOO_LATE_TO_ABORT: Final = "too_late_to_abort"
"""Both sides have moved, so the game can only be resigned or drawn, not aborted."""
NOTHING_OFFERED: Final = "nothing_offered"
"""Accepting or declining a draw or a rematch the opponent has not offered."""
UNKNOWN_TOURNAMENT: Final = "unknown_tournament"
"""A ``join_tournament`` or ``leave_tournament`` named no tournament (version 6)."""
UNKNOWN_POOL: Final = "unknown_pool"
"""No ladder pool has this id."""
RATE_LIMITED: Final = "rate_limited"
"""Too many messages too quickly; this one was dropped. Slow down."""
UNAVAILABLE: Final = "unavailable"
"""The server cannot do this now (shutting down, AI busy, feature not enabled)."""
INTERNAL_ERROR: Final = "internal_error"
"""Something went wrong in the server; the message may be retried."""

BANNED: Final = "banned"
"""Version 6: the player's name (or account) is banned; the sentence says until when and
why. Sent for a ``hello`` and, fatal, to a session ended by a ban."""
MUTED: Final = "muted"
"""Version 6: the player is muted; the chat line was not delivered. The sentence says
until when."""
REFUSED: Final = "refused"
"""Version 6: the player challenged does not accept challenges from this player (a
block, or they accept challenges only from accounts, or from nobody)."""

OLDER_CODES: Final[dict[str, ErrorCode]] = {
    BANNED: "not_authenticated",
    MUTED: "rate_limited",
    REFUSED: "unknown_player",
}
"""What a client speaking a version before 6 is sent instead of each newer code."""

ERROR_CODES: Final[dict[str, str]] = {
    BAD_JSON: "The message was not UTF-8 JSON text.",
    BAD_MESSAGE: "The JSON was not a valid message; the sentence names the fields.",
    TOO_LARGE: "The message was too long; the server closes the connection.",
    UNSUPPORTED_VERSION: "The hello's protocol version is not supported; the server closes.",
    NOT_AUTHENTICATED: (
        "A message other than hello or ping came before the hello, or anything but watching "
        "came on a connection that only watches."
    ),
    ALREADY_AUTHENTICATED: "A second hello on a connection already welcomed.",
    BAD_TOKEN: "The token is unknown, revoked, or belongs to another name.",
    NAME_TAKEN: (
        "The name belongs to an account or to another connected player, "
        "or a moderator keeps guests off it."
    ),
    UNKNOWN_GAME: "The server does not host this game.",
    BAD_OPTIONS: "The game refused these options.",
    UNKNOWN_PLAYER: "The challenged player is not connected.",
    UNKNOWN_SEEK: "No open seek has this id.",
    OWN_SEEK: "Accepting your own seek, or cancelling another player's.",
    TOO_MANY_SEEKS: "Too many open seeks for one player.",
    UNKNOWN_ROOM: "No room has this id.",
    NOT_IN_ROOM: "This connection has not joined that room.",
    NOT_A_PLAYER: "Only the room's players may do this.",
    SEAT_TAKEN: "The room's seats belong to other players.",
    NOT_YOUR_TURN: "It is the other side's turn.",
    STALE_PLY: "The move answers an earlier position.",
    INVALID_MOVE: "The text is not a move in the game's notation.",
    ILLEGAL_MOVE: "The rules forbid this move here; reason holds the engine's code.",
    GAME_OVER: "The game has ended.",
    TOO_LATE_TO_ABORT: "Both sides have moved; the game can no longer be aborted.",
    NOTHING_OFFERED: "No draw or rematch offer is pending from the opponent.",
    UNKNOWN_POOL: "No ladder pool has this id.",
    UNKNOWN_TOURNAMENT: "No tournament has this id.",
    RATE_LIMITED: "Too many messages too quickly; this one was dropped.",
    UNAVAILABLE: "The server cannot do this now.",
    INTERNAL_ERROR: "Something went wrong in the server.",
    BANNED: "The player is banned; the sentence says until when and why.",
    MUTED: "The player is muted; the chat line was not delivered.",
    REFUSED: "The player challenged does not accept challenges from this player.",
}
"""Every error code with a short description, in :data:`ErrorCode` order."""

FATAL_ERRORS: Final = frozenset({TOO_LARGE, UNSUPPORTED_VERSION})
"""Codes after which the server closes the connection."""
