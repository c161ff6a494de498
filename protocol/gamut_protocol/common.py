"""What every message shares: the protocol version, the limits and the bounded field types.

Every string on the wire is length-limited and every integer bounded, so a message that
validates is always safe to store, log and broadcast. The limits are constants here so
that the server, the clients and the documentation quote the same numbers.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

PROTOCOL_VERSION: Final[int] = 6
"""The protocol version this package speaks; a ``hello`` names the one its client speaks."""

MIN_PROTOCOL_VERSION: Final[int] = 1
"""The oldest protocol version a server built on this package still accepts."""

UNNAMED_PROTOCOL_VERSION: Final = 1
"""The version of a ``hello`` that names none: clients written before versions were named."""

PRESENCE_VERSION: Final = 2
"""The first version that says who is online (``lobby_snapshot.present`` and ``presence``);
a server sends neither to a client speaking an older version."""

LEAN_MOVES_VERSION: Final = 3
"""The first version whose ``move_made`` lists the legal moves only to the player now to
move (the others get an empty list, as snapshots still give everyone the list); a client
speaking an older version gets them in every ``move_made``."""

BOARD_VERSION: Final = 3
"""The first version whose game descriptors place every cell (geometry ``board``); a
client speaking an older version gets the ``square`` or ``hex`` form of a board."""

WATCH_VERSION: Final = 4
"""The first version whose ``hello`` may leave out the ``name``: a visitor who has not
chosen one opens a connection that only watches (its ``welcome`` has no ``name``)."""

RATINGS_VERSION: Final = 5
"""The first version that knows people's ratings: rated seeks' ``rating_range`` and
``author_rating``, a seat's ``provisional``, ``game_rated`` and a snapshot's ``ratings``;
a server sends none of them to a client speaking an older version."""

GAME_LOOK_VERSION: Final = 6
"""The first version whose game descriptors may carry what the game declares about its
look: each side's ``colours`` and the board's ``pick_lines``; a client speaking an older
version gets descriptors without them."""

TOURNAMENTS_VERSION: Final = 6
"""The first version that knows tournaments: ``join_tournament``, ``leave_tournament``
and ``tournament_status``; a server sends no ``tournament_status`` to a client speaking
an older version."""
SAFETY_VERSION: Final = 6
"""The first version with blocks, reports, whom challenges are accepted from and lines
removed by moderators (``block``, ``unblock``, ``accept_challenges``, ``report``,
``blocks``, ``report_received``, ``chat_removed``) and the error codes ``banned``,
``muted`` and ``refused``; a server sends clients of older versions none of these
messages, and older codes instead."""

MAX_CLIENT_MESSAGE_BYTES: Final = 16_384
"""Largest client message, in bytes of UTF-8 JSON; bigger ones are refused as ``too_large``."""

MAX_SERVER_MESSAGE_BYTES: Final = 4_194_304
"""Largest server message a client need accept (a long game's snapshot stays far below)."""

MAX_NAME_LENGTH: Final = 24
"""Longest player name."""

MAX_CHAT_LENGTH: Final = 500
"""Longest chat line, in characters."""

MAX_TEXT_LENGTH: Final = 500
"""Longest free sentence the server sends (error messages, option help, notation hints)."""

MAX_ID_LENGTH: Final = 64
"""Longest identifier: room, seek and ladder pool ids, and string correlation ids."""

MAX_TOKEN_LENGTH: Final = 256
"""Longest authentication token."""

MAX_MOVE_LENGTH: Final = 64
"""Longest move text (in any notation a game accepts)."""

MAX_ENCODING_LENGTH: Final = 4_096
"""Longest one-line position encoding."""

MAX_CELLS: Final = 1_024
"""Most cells a board may have (19×19 is 361; a hex board with 16 a side is 721)."""

MAX_BOARD_SIDE: Final = 32
"""Most cells along one side of a square board, or along one edge of a hex board."""

MAX_PLY: Final = 100_000
"""Highest ply number; games end long before (400 plies by default)."""

MAX_LEGAL_MOVES: Final = 8_192
"""Most legal moves a message lists."""

MAX_SEQ: Final = 2**53 - 1
"""Highest room sequence number (the largest integer every JSON reader keeps exact)."""

MAX_MILLIS: Final = 7 * 24 * 3_600_000
"""Longest duration in milliseconds: one week."""

MAX_OPTIONS: Final = 16
"""Most game options in one message."""

MAX_AI_LEVEL: Final = 8
"""The strongest AI level; level 1 is the weakest."""

MAX_RATING_GAP: Final = 2_000
"""The widest gap a rated seek's rating range may allow on either side."""

MAX_LIST_LENGTH: Final = 1_000
"""Most entries in a list of rooms, seeks, games, chat lines or pools."""


def clip_sentence(text: str) -> str:
    """``text`` cut to :data:`MAX_TEXT_LENGTH` characters, ending in ``…`` when cut."""
    if len(text) <= MAX_TEXT_LENGTH:
        return text
    return text[: MAX_TEXT_LENGTH - 1] + "…"


class WireModel(BaseModel):
    """Base of every model on the wire: immutable, and unknown fields are an error.

    Field docstrings become the fields' descriptions, in the JSON Schema too.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


Side = Literal[0, 1]
"""A side's index: 0 moves first."""

Owner = Side | None
"""Who owns a cell: a side, or ``None`` when it is empty."""

ClientKind = Literal["human", "bot"]
"""What kind of program a client is: one a person drives, or one that plays by itself."""

PlayerKind = Literal["human", "bot", "ai"]
"""Who sits at a side: a person, a connected bot, or the server's own AI."""

Role = Literal["player", "spectator"]
"""How a connection takes part in a room."""

PRINTABLE_PATTERN: Final = r"^[^\x00-\x1f\x7f]+$"
"""One line of text: no control characters, no line breaks."""
IDENTIFIER_PATTERN: Final = r"^[A-Za-z0-9_.:-]+$"
"""Server-made ids: letters, digits, ``_``, ``.``, ``:`` and ``-``."""
NAME_PATTERN: Final = r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
"""Player names: letters, digits, ``_``, ``.`` and ``-``, not starting with ``.`` or ``-``."""
CODE_PATTERN: Final = r"^[a-z][a-z0-9_]*$"
"""Codes and registry names: ``snake_case``."""
CELL_PATTERN: Final = r"^[A-Za-z0-9]+$"
"""Cell names: letters and digits."""
INVISIBLE_CHARACTERS: Final = (
    "\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\U000e0000-\U000e007f"
)
"""The invisible and direction-changing characters chat refuses, as a character class's
ranges: the soft hyphen, zero-width spaces and joiners, the marks and overrides of
direction (``"hi \u202egnp.exe"`` would read "hi exe.png"), the byte-order mark and the
tag characters."""
_CHAT_CHARACTER = f"[^\\x00-\\x1f\\x7f{INVISIBLE_CHARACTERS}]"
_VISIBLE_CHARACTER = f"[^\\x00-\\x1f\\x7f\\s{INVISIBLE_CHARACTERS}]"
CHAT_PATTERN: Final = f"^{_CHAT_CHARACTER}*{_VISIBLE_CHARACTER}{_CHAT_CHARACTER}*$"
"""Chat lines: no control, invisible or direction-changing characters, no line breaks, and
at least one visible character."""
TOKEN_PATTERN: Final = r"^[!-~]+$"
"""Tokens: printable ASCII without spaces."""
AREA_PATTERN: Final = r"^[a-z][a-z0-9_]*(:[a-z0-9_]+)?$"
"""Area names: a code, optionally followed by ``:`` and a qualifier (``goal:0``)."""

PATTERN_HINTS: Final[dict[str, str]] = {
    PRINTABLE_PATTERN: "must be one line without control characters",
    IDENTIFIER_PATTERN: "may hold only letters, digits, '_', '.', ':' and '-'",
    NAME_PATTERN: "may hold only letters, digits, '_', '.' and '-', and not start with '.' or '-'",
    CODE_PATTERN: "must be lower-case letters, digits and '_', starting with a letter",
    CELL_PATTERN: "may hold only letters and digits",
    CHAT_PATTERN: (
        "must be one line with at least one visible character, without control, invisible "
        "or direction-changing characters"
    ),
    TOKEN_PATTERN: "may hold only printable ASCII characters without spaces",
    AREA_PATTERN: "must be a snake_case name, optionally followed by ':' and a qualifier",
}
"""What each pattern asks for, in words, for error messages."""


def name_key(name: str) -> str:
    """The form two names share when they are one name: ``Ada_L``, ``ada_l`` and ``ADA_L``
    are one (names are ASCII, so folding case is enough)."""
    return name.lower()


ChallengesFrom = Literal["everyone", "accounts", "nobody"]
"""Whom a player accepts challenges from (version 6): anyone, players signed in to an
account, or nobody."""

PlayerName = Annotated[
    StrictStr,
    Field(min_length=1, max_length=MAX_NAME_LENGTH, pattern=NAME_PATTERN),
]
"""A player's name: letters, digits, ``_``, ``.`` and ``-``, not starting with ``.`` or ``-``."""

Identifier = Annotated[
    StrictStr, Field(min_length=1, max_length=MAX_ID_LENGTH, pattern=IDENTIFIER_PATTERN)
]
"""An id the server hands out (rooms, seeks, ladder pools): letters, digits, ``_.:-``."""

RoomId = Identifier
"""The id of a room."""

SeekId = Identifier
"""The id of an open seek in the lobby."""

PoolId = Identifier
"""The id of a ladder pool, such as ``network-5s``."""

TournamentId = Identifier
"""The id of a tournament."""

CorrelationId = (
    Annotated[StrictStr, Field(min_length=1, max_length=MAX_ID_LENGTH, pattern=PRINTABLE_PATTERN)]
    | Annotated[StrictInt, Field(ge=0, le=MAX_SEQ)]
)
"""A client-chosen id for a request (a string or a non-negative integer) that replies echo."""

GameName = Annotated[StrictStr, Field(min_length=1, max_length=32, pattern=CODE_PATTERN)]
"""A game's registry name, such as ``network`` or ``connect5``."""

CellName = Annotated[StrictStr, Field(min_length=1, max_length=8, pattern=CELL_PATTERN)]
"""A cell's name in the game's own notation, such as ``23``, ``A4`` or ``e5``."""

MoveText = Annotated[
    StrictStr, Field(min_length=1, max_length=MAX_MOVE_LENGTH, pattern=PRINTABLE_PATTERN)
]
"""A move in the game's notation: one line of printable text."""

Code = Annotated[StrictStr, Field(min_length=1, max_length=32, pattern=CODE_PATTERN)]
"""A stable machine-readable code in ``snake_case`` (end reasons, illegal-move reasons)."""

Sentence = Annotated[StrictStr, Field(min_length=1, max_length=MAX_TEXT_LENGTH)]
"""A sentence for people, written by the server."""

Title = Annotated[StrictStr, Field(min_length=1, max_length=80, pattern=PRINTABLE_PATTERN)]
"""A short one-line name for people (game titles, side names, server names)."""

ChatText = Annotated[
    StrictStr, Field(min_length=1, max_length=MAX_CHAT_LENGTH, pattern=CHAT_PATTERN)
]
"""One chat line: printable text with at least one non-space character and no line breaks."""

Token = Annotated[
    StrictStr, Field(min_length=1, max_length=MAX_TOKEN_LENGTH, pattern=TOKEN_PATTERN)
]
"""An authentication token: printable ASCII without spaces."""

Ply = Annotated[StrictInt, Field(ge=0, le=MAX_PLY)]
"""A count of moves played: the ply of the start position is 0."""

Seq = Annotated[StrictInt, Field(ge=0, le=MAX_SEQ)]
"""A room sequence number: 0 before the first event, then 1, 2, 3… one per room event."""

Millis = Annotated[StrictInt, Field(ge=0, le=MAX_MILLIS)]
"""A duration or a clock reading in milliseconds."""

Count = Annotated[StrictInt, Field(ge=0, le=1_000_000_000)]
"""A number of things (players online, spectators…)."""

Rating = Annotated[StrictInt, Field(ge=-10_000, le=10_000)]
"""A displayed rating."""

OptionName = Annotated[StrictStr, Field(min_length=1, max_length=32, pattern=CODE_PATTERN)]
"""The name of a game option, as ``load_game`` takes it (``size``, ``rules``, ``max_plies``)."""

OptionValue = (
    StrictBool
    | Annotated[StrictInt, Field(ge=-1_000_000, le=1_000_000)]
    | Annotated[StrictStr, Field(min_length=1, max_length=32, pattern=PRINTABLE_PATTERN)]
)
"""A game option's value: a boolean, a bounded integer or a short string."""

GameOptions = Annotated[dict[OptionName, OptionValue], Field(max_length=MAX_OPTIONS)]
"""The options that, with the game's name, pick a variant: ``{"size": 15}``."""
