"""Network's notation: square names in both rule sets, and reading the text of a move.

Both rule sets read every form: cs61b squares ``xy`` (``23``), the cs61b referee's
``[add to 23]`` and ``[step from 23 to 45]``, short forms such as ``23-45``, ``23 45``,
``add 23`` or ``step 23 45``, and the 2015 squares ``A4`` (row letter, column number),
``A 4``, ``a4``, ``A4B5``, ``A4 B5`` or ``A4-B5``. Each rule set writes its own names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from gamut_engine.core import InvalidMoveError
from gamut_engine.games.network_board import SIZE, move_origin, move_target, square

ROW_LETTERS = "ABCDEFGH"
"""The 2015 rule set's row names, top to bottom."""

MoveKind = Literal["add", "step"]

_KEYWORDS: dict[str, MoveKind | None] = {
    "add": "add",
    "place": "add",
    "put": "add",
    "step": "step",
    "move": "step",
    "to": None,
    "from": None,
}
_KEYWORD = re.compile(r"(?<![a-z])(" + "|".join(_KEYWORDS) + r")(?![a-z])")
_SQUARE = r"[a-z]\s*\d+|\d\d"
_MOVE = re.compile(rf"\s*({_SQUARE})(?:\s*[-,]?\s*({_SQUARE}))?\s*")
EXPECTED = (
    "a move is a square such as 23 or A4 (add a chip there) or two squares such as "
    "23-45 or A4-B5 (step a chip from the first to the second)"
)
"""What the notation looks like, for error sentences."""


def square_names(lettered: bool) -> tuple[str, ...]:
    """Every square's name by index: ``A4`` style if ``lettered``, else cs61b ``30`` style."""
    if lettered:
        return tuple(f"{ROW_LETTERS[i // SIZE]}{i % SIZE + 1}" for i in range(SIZE * SIZE))
    return tuple(f"{i % SIZE}{i // SIZE}" for i in range(SIZE * SIZE))


def format_move(move: int, names: tuple[str, ...]) -> str:
    """A move in canonical notation: ``target`` for an add, ``origin-target`` for a step."""
    origin = move_origin(move)
    target = names[move_target(move)]
    return target if origin < 0 else f"{names[origin]}-{target}"


@dataclass(frozen=True, slots=True)
class SquareText:
    """One square as the player wrote it."""

    label: str
    """The square's name, tidied (``A4``, ``23``), even when it is off the board."""
    index: int | None
    """The square's index, or ``None`` when the name lies off the board."""


@dataclass(frozen=True, slots=True)
class MoveText:
    """A move as the player wrote it, before any rule is checked."""

    kind: MoveKind
    """``add`` (one square) or ``step`` (two squares)."""
    squares: tuple[SquareText, ...]
    """The target of an add, or the origin and the target of a step."""


def read_move(text: str) -> MoveText:
    """Read the text of a move; raises :class:`InvalidMoveError` if it is not one."""
    words = text.strip().lower()
    if len(words) >= 2 and words[0] + words[-1] in ("[]", "()"):
        words = words[1:-1]
    kinds = {_KEYWORDS[word] for word in _KEYWORD.findall(words)} - {None}
    match = _MOVE.fullmatch(_KEYWORD.sub(" ", words))
    if match is None or len(kinds) > 1:
        raise InvalidMoveError(f"{text.strip()!r} is not a Network move: {EXPECTED}")
    squares = tuple(_read_square(group) for group in match.groups() if group is not None)
    kind: MoveKind = "add" if len(squares) == 1 else "step"
    if kinds and kinds != {kind}:
        raise InvalidMoveError(
            f"{text.strip()!r} names the wrong number of squares for that move: {EXPECTED}"
        )
    return MoveText(kind, squares)


def _read_square(text: str) -> SquareText:
    """One square: a row letter and a column number, or two digits ``xy``."""
    if text[0].isdigit():
        x, y = int(text[0]), int(text[1])
        label = text
    else:
        y, x = ord(text[0]) - ord("a"), int(text[1:].strip()) - 1
        label = f"{text[0].upper()}{int(text[1:].strip())}"
    on_board = 0 <= x < SIZE and 0 <= y < SIZE
    return SquareText(label, square(x, y) if on_board else None)
